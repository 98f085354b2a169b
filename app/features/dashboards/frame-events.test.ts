import { describe, expect, it } from "vitest";
import { frameErrorText } from "./frame-events";
import { dashboardTexts } from "./texts";

describe("QuickSight frame errors", () => {
  it("shows the error code of ERROR_OCCURRED, not the alert's title", () => {
    const text = frameErrorText({ eventName: "ERROR_OCCURRED", message: { errorCode: "Forbidden" } });
    expect(text).toBe("O QuickSight informou um erro ao exibir o painel (código Forbidden).");
    expect(text).not.toBe(dashboardTexts.dashboardEmbedFailedTitle);
  });

  it("adds the error's message when the frame sends one", () => {
    expect(
      frameErrorText({
        eventName: "ERROR_OCCURRED",
        message: { errorCode: "NotFound", errorMessage: "Dashboard not found" },
      }),
    ).toBe("O QuickSight informou um erro ao exibir o painel (código NotFound): Dashboard not found");
  });

  it("still says an error happened when the frame gives no code", () => {
    expect(frameErrorText({ eventName: "ERROR_OCCURRED" })).toBe("O QuickSight informou um erro ao exibir o painel.");
  });

  it("reports frame-level ERROR changes by name and ignores everything else", () => {
    expect(frameErrorText({ eventName: "FRAME_NOT_CREATED", eventLevel: "ERROR" })).toBe(
      "O QuickSight informou um erro ao exibir o painel (código FRAME_NOT_CREATED).",
    );
    expect(frameErrorText({ eventName: "FRAME_STARTED", eventLevel: "INFO" })).toBeNull();
    expect(frameErrorText({ eventName: "CONTENT_LOADED", message: { title: "Vendas" } })).toBeNull();
  });
});
