import type { EmergencyContact, EmergencyRegion, SiteSafety } from "../../shared/config/guard-config.ts";
import { localize } from "../../shared/config/localize.ts";

/**
 * Numbers by region (the emergency guard): a visitor is told the line that answers where they are, not a
 * generic "call emergency services" (CIRISAgent#779). A site may replace a region's list.
 */
export const DEFAULT_CONTACTS: Record<EmergencyRegion, EmergencyContact[]> = {
  US: [
    { label: { en: "Emergency services", "zh-CN": "急救电话" }, number: "911", kind: "emergency" },
    {
      label: {
        en: "988 Suicide & Crisis Lifeline (call or text)",
        "zh-CN": "988 自杀与危机热线（电话或短信）",
      },
      number: "988",
      kind: "crisis",
    },
  ],
  UK: [
    { label: { en: "Emergency services", "zh-CN": "急救电话" }, number: "999", kind: "emergency" },
    {
      label: { en: "Samaritans (free, 24 hours)", "zh-CN": "撒玛利亚会（免费，24 小时）" },
      number: "116 123",
      kind: "crisis",
    },
  ],
  CN: [
    { label: { en: "Ambulance", "zh-CN": "急救电话" }, number: "120", kind: "emergency" },
    { label: { en: "Mental health helpline", "zh-CN": "心理援助热线" }, number: "12356", kind: "crisis" },
  ],
  EU: [
    {
      label: {
        en: "Emergency number (all EU countries)",
        "zh-CN": "欧盟紧急电话",
      },
      number: "112",
      kind: "emergency",
    },
  ],
};

const EU_COUNTRIES = new Set(
  "AT BE BG HR CY CZ DK EE FI FR DE GR IE IT LV LT LU MT NL PL PT RO SK SI ES SE".split(" "),
);

/** The region of a country code (ISO 3166 alpha-2, as Cloudflare's `request.cf.country` gives it). */
export function regionOfCountry(country: string | undefined): EmergencyRegion | undefined {
  const c = country?.toUpperCase();
  if (!c) return undefined;
  if (c === "US") return "US";
  if (c === "GB" || c === "UK") return "UK";
  if (c === "CN") return "CN";
  return EU_COUNTRIES.has(c) ? "EU" : undefined;
}

/**
 * The country of the first language tag that names one: "en-GB,en;q=0.9" gives GB, "zh-Hans-CN" CN.
 * Chinese with no region ("zh", "zh-Hans") is read as mainland China, where simplified Chinese is
 * written; traditional ("zh-Hant") names no country.
 */
export function countryOfLanguages(acceptLanguage: string | undefined): string | undefined {
  for (const tag of (acceptLanguage ?? "").split(",")) {
    const m = /^\s*([a-z]{2,3})(?:[-_]([a-z]{4}))?(?:[-_]([a-z]{2}))?(?![a-z])/i.exec(tag);
    if (!m) continue;
    if (m[3]) return m[3];
    if (m[1].toLowerCase() === "zh" && m[2]?.toLowerCase() !== "hant") return "CN";
  }
  return undefined;
}

export interface VisitorPlace {
  /** The visitor's country from the network (Cloudflare's `cf.country`), when known. */
  country?: string;
  acceptLanguage?: string;
  /** The card's language: "en" or "zh-CN". */
  language: string;
}

/** Where the visitor is: the network's country, else their browser's language region, else the site's default. */
export function visitorRegion(place: VisitorPlace, safety: SiteSafety): EmergencyRegion {
  return (
    regionOfCountry(place.country) ??
    regionOfCountry(countryOfLanguages(place.acceptLanguage)) ??
    safety.defaultRegion ??
    (place.language.startsWith("zh") ? "CN" : "US")
  );
}

/** The card's numbers: for the crisis variant the crisis line first, then the emergency number. */
export function contactsFor(region: EmergencyRegion, safety: SiteSafety, crisis: boolean, language: string) {
  const list = safety.contacts?.[region] ?? DEFAULT_CONTACTS[region];
  const ordered = crisis
    ? [...list.filter((c) => c.kind === "crisis"), ...list.filter((c) => c.kind !== "crisis")]
    : list.filter((c) => c.kind === "emergency");
  return (ordered.length ? ordered : list).map((c) => ({ label: localize(c.label, language), number: c.number }));
}
