import type { LocalizedText } from "../../shared/config/localized-text.ts";
import { t } from "../i18n.ts";

/** A table's column headings, each a column header for screen readers, in the console's language. */
export function TableHead({ cols }: { cols: LocalizedText[] }) {
  return (
    <thead>
      <tr>
        {cols.map((h) => (
          <th scope="col" key={t(h)}>
            {t(h)}
          </th>
        ))}
      </tr>
    </thead>
  );
}
