/**
 * Routes of the visitor's consent and own data, in a module of their own: the widget calls them from
 * its lazy chunks (the photo kit, the privacy chunk), and a constant of routes.ts that a chunk reads
 * would ship in the panel's core, where routes.ts is. routes.ts re-exports them: one table still.
 */
/** The visitor agrees to a consent notice's version (shared/session/consent.ts); the worker records it. */
export const sessionConsent = "/v1/sessions/:id/consent";
/** The visitor's copy of the conversation (`?format=html|json`), with the session's token only. */
export const sessionDownload = "/v1/sessions/:id/download";
