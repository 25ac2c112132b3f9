import { describe, expect, it } from "vitest";
import { redactText } from "../../../worker/privacy/redact-text.ts";
import { isCnResidentId, isNhsNumber, isSsn } from "../../../worker/privacy/check-digits.ts";
import { PII_TYPES } from "../../../worker/privacy/pii-types.ts";
import { scoreSet, type RedactionCase } from "../../helpers/redaction-score.ts";
import dev from "../../fixtures/redaction-dev.json";

describe("redactText", () => {
  it("replaces each kind of personal detail with its typed placeholder, in English and Chinese", () => {
    expect(redactText("Email me at jane.roe@example.com or call (415) 555-0132, DOB 1990-11-23")).toBe(
      "Email me at [email] or call [phone], DOB [birth-date]",
    );
    expect(redactText("我住在北京市朝阳区建国路88号2号楼1205室，手机13812345678，身份证110105199003071239")).toBe(
      "我住在[address]，手机[phone]，身份证[id-number]",
    );
    expect(redactText("NHS number 943 476 5919; I live at 42 Elm Road, Leeds LS6 2AB")).toBe(
      "NHS number [id-number]; I live at [address]",
    );
  });

  it("takes a Chinese resident id only with its check character right, and its birth date real", () => {
    expect(isCnResidentId("110105199003071239")).toBe(true);
    expect(isCnResidentId("44030619851231002X")).toBe(false);
    expect(isCnResidentId("110105199002301236")).toBe(false);
    expect(redactText("身份证 44030619851231002X")).toBe("身份证 44030619851231002X");
    expect(redactText("订单号：202311051234567890")).toBe("订单号：202311051234567890");
  });

  it("checks NHS numbers (modulus 11) and US social security numbers as issued", () => {
    expect(isNhsNumber("9434765919")).toBe(true);
    expect(isNhsNumber("9434765918")).toBe(false);
    expect([isSsn("536", "22", "8174"), isSsn("000", "22", "8174"), isSsn("666", "22", "8174")]).toEqual([
      true,
      false,
      false,
    ]);
    expect(redactText("SSN 900-22-8174 is not one")).toBe("SSN 900-22-8174 is not one");
  });

  it("leaves look-alikes: order numbers, prices, dates that are not birth dates, version numbers", () => {
    for (const text of [
      "My order number is 100234567891 and it hasn't arrived",
      "The cream costs $1,249.99 for the 3-month pack?",
      "I started the isotretinoin on 2024-02-15",
      "I'm on version 2.14.3 of the app",
      "Tracking number 1Z999AA10123456784 says delivered",
      "预约在2025年4月3日上午",
      "版本号 3.12.0 的小程序打不开",
      "I paid £45.00 at the St John's Road pharmacy",
      "Take 2 tablets on Main Street after lunch",
    ])
      expect(redactText(text)).toBe(text);
  });

  it("meets bench:redact's budget on the development set: every type's recall >= 95 %, no false redaction", () => {
    const { byType } = scoreSet(dev.cases as RedactionCase[]);
    for (const t of PII_TYPES) {
      expect(byType[t].caught / byType[t].labelled, t).toBeGreaterThanOrEqual(0.95);
      expect(byType[t].falseRedactions, t).toBeLessThanOrEqual(1);
    }
  });
});
