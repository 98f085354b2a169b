import { Link } from "@remix-run/react";
import type { PlanningScreen } from "./screens";
import { planningTexts } from "./texts";

/** The title and the two steps (spec 001 §2: step 1 Select, step 2 Edit); the finished step links back with the filter. */
export function PlanningHeader({
  screen,
  step,
  filterHref,
}: {
  screen: PlanningScreen;
  step: 1 | 2;
  filterHref?: string;
}) {
  return (
    <header className="planning__header">
      <h1>{screen.title}</h1>
      <nav aria-label={planningTexts.stepsLabel}>
        <ol className="planning-steps">
          <li aria-current={step === 1 ? "step" : undefined}>
            {step === 2 && filterHref ? (
              <Link to={filterHref}>1 {planningTexts.stepSelect}</Link>
            ) : (
              <span>1 {planningTexts.stepSelect}</span>
            )}
          </li>
          <li aria-current={step === 2 ? "step" : undefined}>
            <span>2 {planningTexts.stepEdit}</span>
          </li>
        </ol>
      </nav>
    </header>
  );
}

/** The loading indicator of the planning screens (spec 001 §2: "While loading a spinner shows"). */
export function Spinner({ label = planningTexts.loading }: { label?: string }) {
  return (
    <div className="planning-spinner" role="status">
      <span className="planning-spinner__wheel" aria-hidden="true" />
      {label}
    </div>
  );
}
