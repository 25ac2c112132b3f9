import { describe, expect, it } from "vitest";
import { EVENT_TYPES } from "../../../shared/wire/protocol.ts";
import type { SessionState } from "../../../shared/session/session.ts";
import { WEBHOOK_EVENTS } from "../../../shared/admin/webhook-events.ts";
import { sessionWebhookMessages } from "../../../worker/webhooks/session-hooks.ts";
import type { SessionEvent } from "../../../shared/session/session-events.ts";

/** A booking made or cancelled in the chat is a webhook event of the site's, with the listed fields only. */
describe("booking webhook events", () => {
  const state = { sessionId: "s-1", agentId: "derm-consult" } as SessionState;
  const visit = {
    cardId: "card-1",
    key: "k".repeat(64),
    uid: "cal-uid-9",
    start: "2026-12-01T09:00:00.000Z",
    end: "2026-12-01T09:30:00.000Z",
    title: "Skin check",
    name: "Ana",
    contact: "ana@example.com",
    reason: "a mole that changed",
  };

  it("makes booking.created and booking.cancelled, keyed by the session's event", () => {
    const created = { id: "booking:k", at: 1, type: EVENT_TYPES.bookingCreated, data: visit } as SessionEvent;
    const cancelled = {
      id: "booking.cancelled:card-1:ab",
      at: 2,
      type: EVENT_TYPES.bookingCancelled,
      data: { cardId: "card-1", uid: "cal-uid-9" },
    } as SessionEvent;
    const [a, b] = sessionWebhookMessages(state, [created, cancelled]);
    expect(a).toMatchObject({ id: "s-1:booking:k", type: WEBHOOK_EVENTS.bookingCreated, conversation: "s-1" });
    expect(a.data).toEqual({
      agentId: "derm-consult",
      booking: {
        uid: "cal-uid-9",
        start: visit.start,
        end: visit.end,
        title: "Skin check",
        name: "Ana",
        contact: "ana@example.com",
        reason: "a mole that changed",
      },
    });
    // The idempotency key and the card's id are the worker's own, not the receiver's.
    expect(JSON.stringify(a.data)).not.toContain(visit.key);
    expect(b).toMatchObject({ type: WEBHOOK_EVENTS.bookingCancelled, data: { booking: { uid: "cal-uid-9" } } });
  });

  it("makes nothing of a slots card offered", () => {
    const offered = { id: "o", at: 1, type: EVENT_TYPES.bookingOffered, data: {} } as unknown as SessionEvent;
    expect(sessionWebhookMessages(state, [offered])).toEqual([]);
  });
});
