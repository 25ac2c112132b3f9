import { z } from "zod/mini";
import { defineTool } from "./tool.ts";

/**
 * The sales coach's profile reader: a customer's profile, read on the worker for the signed-in rep only
 * (the rep comes from the host's signed identity bound into the session, never from the model).
 */
export const profileReader = defineTool({
  name: "profile_reader",
  runsOn: "edge",
  description:
    "Read a customer's profile (clinic, contacts, purchase history, open deals, notes) by the customer's id. " +
    "Only customers assigned to the signed-in rep can be read.",
  input: z.object({ customerId: z.string().check(z.minLength(1), z.maxLength(80)) }),
});
