import { describe, expect, it } from "vitest";
import { takeoverBody, takeoverForm } from "../../console/pages/takeover-form.ts";
import { TakeoverSettings } from "../../shared/config/takeover-config.ts";

describe("the Setup page's takeover section", () => {
  it("shows the longest wait (10 minutes unless set) and sends what the worker accepts", () => {
    const form = takeoverForm(undefined);
    expect(form.maxWait).toBe("10");
    expect(takeoverForm(TakeoverSettings.parse({ enabled: true, maxWaitMinutes: 25 })).maxWait).toBe("25");

    const sent = takeoverBody({ ...form, enabled: true, maxWait: " 25 " });
    if ("error" in sent) throw new Error(sent.error);
    expect(sent.body).toEqual({ enabled: true, maxWaitMinutes: 25 });
    expect(TakeoverSettings.safeParse(sent.body).success).toBe(true);
    const empty = takeoverBody({ ...form, maxWait: "" });
    expect("body" in empty && empty.body.maxWaitMinutes).toBe(10);
  });

  it("leaves a wait that is not a whole number of minutes to the worker, which names the field", () => {
    for (const maxWait of ["abc", "0", "2.5", "1000"]) {
      const sent = takeoverBody({ ...takeoverForm(undefined), maxWait });
      if ("error" in sent) throw new Error(sent.error);
      const checked = TakeoverSettings.safeParse(sent.body);
      expect(checked.success, maxWait).toBe(false);
      expect(checked.error?.issues[0].path, maxWait).toEqual(["maxWaitMinutes"]);
    }
  });
});
