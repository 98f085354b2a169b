import { Form } from "@remix-run/react";
import { ASSIGNABLE_TIERS, TIER_LABELS, type Tier } from "~/access";
import { accessTexts } from "./texts";

/**
 * The four exclusive tier choices of one user (Explorer, Básico, Padrão, Avançado), as toggle buttons of a
 * GET form: choosing one only opens the confirmation dialog (`?user=…&tier=…`); nothing is saved yet.
 * `keep` are the list's other URL parameters (page, page size), carried along so the list stays on its page.
 */
export function TierChoices({
  action,
  user,
  current,
  keep = [],
}: {
  action: string;
  user: string;
  current: Tier | null;
  keep?: ReadonlyArray<readonly [string, string]>;
}) {
  return (
    <Form method="get" action={action} preventScrollReset className="inline-form">
      {keep.map(([name, value], i) => (
        <input key={`${name}-${i}`} type="hidden" name={name} value={value} />
      ))}
      <input type="hidden" name="user" value={user} />
      <div className="tier-choices" role="group" aria-label={accessTexts.tierChoiceLabel(user)}>
        {ASSIGNABLE_TIERS.map((tier) => (
          <button
            key={tier}
            type="submit"
            name="tier"
            value={tier}
            className="button button--secondary"
            aria-pressed={current === tier}
          >
            {TIER_LABELS[tier]}
          </button>
        ))}
      </div>
    </Form>
  );
}
