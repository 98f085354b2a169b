import { Dialog } from "~/shared/ui/dialog";
import { uiTexts } from "~/shared/ui/texts";
import { gridEditTexts } from "./edit-texts";

/**
 * The review page's two dialogs, which only a browser running the page opens (the page loads this module when one
 * first opens): leaving with unsaved changes, and the save under way.
 */
export default function ReviewDialogs({
  leaving,
  pending,
  onStay,
  onLeave,
  saving,
}: {
  leaving: boolean;
  /** How many changed cells are not saved yet. */
  pending: number;
  onStay: () => void;
  onLeave: () => void;
  saving: boolean;
}) {
  return (
    <>
      <Dialog
        open={leaving}
        onOpenChange={(open) => !open && onStay()}
        title={gridEditTexts.leaveTitle}
        description={gridEditTexts.leavePrompt(pending)}
        footer={
          <>
            <button type="button" className="button button--secondary" onClick={onStay}>
              {gridEditTexts.stay}
            </button>
            <button type="button" className="button button--danger" onClick={onLeave}>
              {gridEditTexts.leave}
            </button>
          </>
        }
      />
      {/* While saving (spec 001: "Salvando Dados..."); the save is then confirmed by the portal's toast. */}
      <Dialog open={saving} dismissible={false} title={uiTexts.savingData}>
        <div className="forecast-review__spinner" aria-hidden="true" />
      </Dialog>
    </>
  );
}
