import type { ToolDefinition } from "../../shared/tools/tool.ts";
import { TOOLS } from "../../shared/tools/index.ts";
import { complianceCheck } from "../../shared/tools/compliance-check.ts";
import { priceCalculator } from "../../shared/tools/price-calculator.ts";
import { crmAction } from "../../shared/tools/crm-action.ts";
import { profileReader } from "../../shared/tools/profile-reader.ts";
import { analyzeSkinImage } from "../../shared/tools/analyze-skin-image.ts";
import { BOOKING_TOOLS } from "../../shared/tools/booking.ts";
import { offerLeadCard } from "../../shared/tools/offer-lead-card.ts";

/**
 * Every tool an agent config may name, as the worker knows them: the shared ones and the sales
 * tools, whose schemas only the worker needs (they run here; the widget passes their calls on).
 */
export const TOOL_DEFS: Record<string, ToolDefinition> = {
  ...TOOLS,
  [complianceCheck.name]: complianceCheck,
  [priceCalculator.name]: priceCalculator,
  [crmAction.name]: crmAction,
  [profileReader.name]: profileReader,
  [analyzeSkinImage.name]: analyzeSkinImage,
  ...Object.fromEntries(BOOKING_TOOLS.map((t) => [t.name, t])),
  [offerLeadCard.name]: offerLeadCard,
};
