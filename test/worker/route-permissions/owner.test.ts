import { afterEach, it } from "vitest";
import { clearConfigCache } from "../../../worker/config/config-store.ts";
import { walkPermissions } from "../../helpers/worker/permission-walk.ts";

afterEach(() => clearConfigCache());

// About 180 requests (every admin route, by session and by key): over a test's default bound on a busy machine.
it(
  "owner: allowed where the permission table grants it, 403 role_forbidden everywhere else",
  () => walkPermissions("owner"),
  60_000,
);
