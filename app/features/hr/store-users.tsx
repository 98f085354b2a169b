import type { StoreUser } from "~/models/hr.server";
import { hrTexts } from "./texts";

/** The branch's people in the month range, beside the grid (spec 001 §7 "get users of store"). */
export function StoreUsers({ people, filial }: { people: StoreUser[]; filial: string }) {
  return (
    <aside className="hr-people" aria-labelledby="hr-people-title">
      <h2 id="hr-people-title">{hrTexts.storeUsersTitle}</h2>
      {people.length === 0 ? (
        <p className="hr-people__empty">{hrTexts.noStoreUsers}</p>
      ) : (
        <ul className="hr-people__scroll scroll-area" tabIndex={0} aria-label={hrTexts.storeUsersCaption(filial)}>
          {people.map((p) => (
            <li key={p.matricula}>
              <span className="hr-people__name">{p.nome}</span>
              <span className="hr-people__meta">
                <span className="visually-hidden">{hrTexts.storeUsersColumns.matricula}: </span>
                {p.matricula} · <span className="visually-hidden">{hrTexts.storeUsersColumns.cargo}: </span>
                {p.cargo}
              </span>
            </li>
          ))}
        </ul>
      )}
    </aside>
  );
}
