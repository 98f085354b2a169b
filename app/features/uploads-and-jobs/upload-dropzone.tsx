import { useId, useState } from "react";
import { FILE_TARGET_FIELD, type FileTarget, isFileTarget } from "~/models/files.fields";
import { formatSize } from "~/shared/numbers";
import { uploadScreenTexts as t, uploadTargetTexts as targetTexts } from "./texts";

type AddFiles = (files: FileList | File[] | null) => void;

/** "Tipo de carga": the choices its user may load, each with its hint. */
function TargetChoice({
  targets,
  target,
  onChange,
}: {
  targets: readonly FileTarget[];
  target: FileTarget;
  onChange: (target: FileTarget) => void;
}) {
  const targetId = useId();
  return (
    <fieldset className="upload-target">
      <legend>{targetTexts.legend}</legend>
      {targets.map((value) => (
        <div key={value} className="upload-target__option">
          <input
            id={`${targetId}-${value}`}
            type="radio"
            name={FILE_TARGET_FIELD}
            value={value}
            checked={target === value}
            aria-describedby={`${targetId}-${value}-hint`}
            onChange={(event) => {
              if (isFileTarget(event.currentTarget.value)) onChange(event.currentTarget.value);
            }}
          />
          <label htmlFor={`${targetId}-${value}`} className="upload-target__label">
            {targetTexts.options[value].label}
          </label>
          <span id={`${targetId}-${value}-hint`} className="upload-target__hint">
            {targetTexts.options[value].hint}
          </span>
        </div>
      ))}
      <p className="upload-target__note">{targetTexts.alwaysNote}</p>
    </fieldset>
  );
}

/**
 * Where files are picked or dropped. Without JavaScript this form posts the files itself (to /api/upload); with it,
 * picking or dropping hands them to `onFiles`, which sends each on its own.
 */
export function UploadDropzone({
  extensions,
  maxBytes,
  targets,
  target,
  onTarget,
  onFiles,
  hydrated,
}: {
  extensions: readonly string[];
  maxBytes: number;
  targets: readonly FileTarget[];
  target: FileTarget;
  onTarget: (target: FileTarget) => void;
  onFiles: AddFiles;
  hydrated: boolean;
}) {
  const inputId = useId();
  const hintId = useId();
  const [dragging, setDragging] = useState(false);
  return (
    <form
      method="post"
      encType="multipart/form-data"
      action="/api/upload"
      className={`upload-drop${dragging ? " upload-drop--active" : ""}`}
      data-testid="upload-dropzone"
      onSubmit={(event) => {
        event.preventDefault();
        const input = event.currentTarget.elements.namedItem("files") as HTMLInputElement | null;
        onFiles(input?.files ?? null);
        if (input) input.value = "";
      }}
      onDragEnter={(event) => {
        event.preventDefault();
        setDragging(true);
      }}
      onDragOver={(event) => {
        event.preventDefault();
        if (event.dataTransfer) event.dataTransfer.dropEffect = "copy";
      }}
      onDragLeave={(event) => {
        if (!event.currentTarget.contains(event.relatedTarget as Node | null)) setDragging(false);
      }}
      onDrop={(event) => {
        event.preventDefault();
        setDragging(false);
        onFiles(event.dataTransfer?.files ?? null);
      }}
    >
      {/* First in the form: a plain post sends the choice before the files (a refused value costs no transfer). */}
      <TargetChoice targets={targets} target={target} onChange={onTarget} />
      <p className="upload-drop__text">{t.dropHere}</p>
      <label htmlFor={inputId} className="upload-drop__label">
        {t.pick}
      </label>
      <input
        id={inputId}
        type="file"
        name="files"
        multiple
        accept={extensions.map((e) => `.${e}`).join(",")}
        aria-describedby={hintId}
        onChange={(event) => {
          if (!hydrated) return;
          onFiles(event.currentTarget.files);
          event.currentTarget.value = "";
        }}
      />
      <p id={hintId} className="upload-drop__hint">
        {t.allowed(extensions, formatSize(maxBytes))}
      </p>
      {hydrated ? null : (
        <button type="submit" className="button button--primary">
          {t.send}
        </button>
      )}
    </form>
  );
}
