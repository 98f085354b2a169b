// Screen: Home: /home, the blank page that says hello.
import { GeneralErrorBoundary } from "~/shared/ui/error-boundary";

/** spec 000: /home (exact) is a blank placeholder page that shows hello. */
export default function HomePage() {
  return <p className="home-placeholder">hello</p>;
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
