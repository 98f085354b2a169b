import type { ShownCode } from "~/models/forecast-cycle.fields";

/** A cost centre's state in the cycle as the lists show it: its label in the state's colour (cycle.css). */
export function CycleStateBadge({ code, label }: { code: ShownCode; label: string }) {
  return <span className={`forecast-cycle__state forecast-cycle__state--${code}`}>{label}</span>;
}
