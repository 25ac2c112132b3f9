import bookingCreated from "../fixtures/calcom/booking-created.json";
import bookingCancelled from "../fixtures/calcom/booking-cancelled.json";
import eventType from "../fixtures/calcom/event-type.json";
import slotTaken from "../fixtures/calcom/error-slot-taken.json";
import bookingsList from "../fixtures/calcom/bookings-list.json";

/**
 * How the fake answers the next requests, in order: a fault each, then normal answers again.
 * `lost-answer`: the request is carried out (a booking is made), but its answer is a 504, as when the
 * connection drops after Cal.com committed it.
 */
export type CalcomFault = "429" | "503" | "garbage" | "wrong-shape" | "lost-answer";

const VERSIONS: Record<string, string> = { "event-types": "2024-06-14", slots: "2024-09-04", bookings: "2024-08-13" };

/**
 * A local Cal.com API v2 that follows the documented requests and answers (test/fixtures/calcom/): it
 * checks the key, the `cal-api-version` of each endpoint and the booking body, keeps the calendar's
 * bookings, and refuses a taken slot as Cal.com does. `free` are the starts it offers (UTC). `raceMs`:
 * the time between its availability check and its insert, in which Cal.com holds no lock
 * (fixtures/calcom/README.md). `created` lists every booking made, a slot booked twice included.
 */
export function fakeCalcom(opts: {
  key: string;
  eventTypeId: number;
  free: string[];
  origin?: string;
  raceMs?: number;
}) {
  const origin = opts.origin ?? "https://api.cal.com";
  const booked = new Map<string, { uid: string; body: any }>();
  const created: Array<{ uid: string; start: string; body: any; cancelled: boolean }> = [];
  const requests: Array<{ method: string; path: string; version: string | null; body: any }> = [];
  const faults: CalcomFault[] = [];
  let uids = 0;
  const json = (status: number, body: unknown, headers: Record<string, string> = {}) =>
    new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json", ...headers } });
  const error = (status: number, code: string, message: string) =>
    json(status, { status: "error", timestamp: new Date().toISOString(), path: "", error: { code, message } });

  async function handle(input: RequestInfo | URL, init?: RequestInit): Promise<Response> {
    const res = await answer(input, init);
    return lost ? ((lost = false), error(504, "GatewayTimeoutException", "Gateway Timeout")) : res;
  }
  let lost = false;

  async function answer(input: RequestInfo | URL, init?: RequestInit): Promise<Response> {
    const req = new Request(input, init);
    const url = new URL(req.url);
    if (url.origin !== origin) throw new Error(`fake Cal.com: unexpected request to ${url.origin}`);
    const body: any = req.method === "POST" ? await req.json().catch(() => null) : null;
    const version = req.headers.get("cal-api-version");
    requests.push({ method: req.method, path: url.pathname + url.search, version, body });
    const fault = faults.shift();
    if (fault === "429") return error(429, "TooManyRequestsException", "Too many requests");
    if (fault === "503") return new Response("<html>Service Unavailable</html>", { status: 503 });
    if (fault === "garbage") return new Response("<html>not json", { status: 200 });
    if (fault === "wrong-shape") return json(200, { status: "success", data: { slots: "soon" } });
    lost = fault === "lost-answer";
    if (req.headers.get("authorization") !== `Bearer ${opts.key}`)
      return error(401, "UnauthorizedException", "Invalid API key");
    const [, v2, resource, id, action] = url.pathname.split("/");
    if (v2 !== "v2" || version !== VERSIONS[resource ?? ""]) return error(400, "BadRequestException", "version");
    if (resource === "event-types" && req.method === "GET" && Number(id) === opts.eventTypeId)
      return json(200, { ...eventType, data: { ...eventType.data, id: opts.eventTypeId } });
    if (resource === "slots" && req.method === "GET") {
      const q = url.searchParams;
      if (Number(q.get("eventTypeId")) !== opts.eventTypeId || q.get("timeZone") !== "UTC")
        return error(400, "BadRequestException", "eventTypeId and timeZone");
      const [from, to] = [q.get("start")!, q.get("end")!];
      const data: Record<string, Array<{ start: string }>> = {};
      for (const s of opts.free) {
        const day = s.slice(0, 10);
        if (day < from || day > to || booked.has(s)) continue;
        // As Cal.com writes them: the asked zone's offset, not `Z`.
        (data[day] ??= []).push({ start: s.replace("Z", "+00:00") });
      }
      return json(200, { status: "success", data });
    }
    if (resource === "bookings" && req.method === "POST" && !id) {
      const ok =
        body?.eventTypeId === opts.eventTypeId &&
        typeof body?.start === "string" &&
        typeof body?.attendee?.name === "string" &&
        typeof body?.attendee?.email === "string" &&
        typeof body?.attendee?.timeZone === "string";
      if (!ok) return error(400, "BadRequestException", "attendee, start and eventTypeId are required");
      const start = new Date(body.start).toISOString();
      if (booked.has(start) || !opts.free.includes(start))
        return json(400, { ...slotTaken, timestamp: new Date().toISOString() });
      if (opts.raceMs) await new Promise((r) => setTimeout(r, opts.raceMs));
      const uid = `booking_uid_${++uids}`;
      booked.set(start, { uid, body });
      created.push({ uid, start, body, cancelled: false });
      const end = new Date(Date.parse(start) + eventType.data.lengthInMinutes * 60_000).toISOString();
      return json(201, {
        ...bookingCreated,
        data: { ...bookingCreated.data, uid, start, end, metadata: body.metadata },
      });
    }
    if (resource === "bookings" && req.method === "GET" && !id) {
      // The documented filters the connector sends; metadata is no filter of Cal.com's.
      const q = url.searchParams;
      const [after, before] = [Date.parse(q.get("afterStart") ?? ""), Date.parse(q.get("beforeEnd") ?? "")];
      const [template] = bookingsList.data;
      const data = created
        .filter((b) => Number(q.get("eventTypeId")) === opts.eventTypeId)
        .filter((b) => !q.get("attendeeEmail") || b.body.attendee.email === q.get("attendeeEmail"))
        .filter((b) => !(Date.parse(b.start) < after) && !(Date.parse(b.start) + 30 * 60_000 > before))
        .map((b) => ({
          ...template,
          uid: b.uid,
          status: b.cancelled ? "cancelled" : "accepted",
          start: b.start,
          end: new Date(Date.parse(b.start) + eventType.data.lengthInMinutes * 60_000).toISOString(),
          metadata: b.body.metadata ?? {},
        }));
      const pagination = { ...bookingsList.pagination, totalItems: data.length, returnedItems: data.length };
      return json(200, { ...bookingsList, data, pagination });
    }
    if (resource === "bookings" && req.method === "POST" && action === "cancel") {
      const hit = [...booked].find(([, b]) => b.uid === id);
      if (!hit) return error(404, "NotFoundException", `Booking with uid=${id} was not found`);
      booked.delete(hit[0]);
      for (const b of created) if (b.uid === id) b.cancelled = true;
      return json(200, { ...bookingCancelled, data: { ...bookingCancelled.data, uid: id } });
    }
    return error(404, "NotFoundException", "Cannot find the route");
  }

  return {
    fetch: handle as typeof fetch,
    requests,
    booked,
    created,
    /** The next requests fail this way, one each. */
    fail: (...f: CalcomFault[]) => faults.push(...f),
    /** Someone else books `start` on the calendar (another visitor, the owner). */
    takeElsewhere: (start: string) => booked.set(start, { uid: `elsewhere_${++uids}`, body: null }),
  };
}
