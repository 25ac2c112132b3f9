import { sign } from "hono/jwt";
import { demoSite } from "./demo-site.ts";

/**
 * The demo's signed identities for the sales coach's profile_reader. The secret is published here,
 * so it exists only in demo mode (a deployed worker's identity secret is a `wrangler secret`); the
 * demo signer stands in for the host's backend, which in production signs its signed-in rep.
 */
export const DEMO_IDENTITY_SECRET_NAME = "DEMO_REP_IDENTITY_SECRET";
export const DEMO_IDENTITY_SECRET = "demo-rep-identity-secret-0001-not-for-production";
export const DEMO_REPS = ["rep-ana", "rep-ben"] as const;

/** Signs `{ sub: rep, site, exp }` as a host's backend would, valid for an hour. */
export async function signDemoIdentity(rep: string, siteKey = demoSite.siteKey, ttlSeconds = 3600): Promise<string> {
  const exp = Math.floor(Date.now() / 1000) + ttlSeconds;
  return sign({ sub: rep, site: siteKey, exp }, DEMO_IDENTITY_SECRET, "HS256");
}

/** Two clinics, each with the reps who may read it. */
const PROFILES: Record<string, { reps: string[] } & Record<string, unknown>> = {
  "clinic-sunrise": {
    reps: ["rep-ana"],
    name: "Sunrise Dermatology",
    city: "Leeds",
    contact: "Dr Priya Shah, lead dermatologist",
    purchases: "Barrier cream 50 ml: 80 tubes a quarter since 2025",
    openDeal: "Moisturiser trial for eczema patients (stage: proposal)",
    notes: "Prefers fragrance-free products; asks for samples before larger orders.",
  },
  "clinic-harbor": {
    reps: ["rep-ben"],
    name: "Harbor Skin Centre",
    city: "Bristol",
    contact: "Tom Reyes, practice manager",
    purchases: "None yet",
    openDeal: "First order (stage: qualification)",
    notes: "Budget review in March.",
  },
};

export const demoProfile = (siteKey: string, customerId: string) =>
  siteKey === demoSite.siteKey ? PROFILES[customerId] : undefined;
