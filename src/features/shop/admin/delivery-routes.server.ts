import { jsonAnswer } from '../../../server/openapi.ts';
import type { ZodApp } from '../../../server/types.ts';
import { adminRoute } from '../../staff/index.server.ts';
import {
  addSlot,
  assertDeliveryAccess,
  changeSlot,
  closeDate,
  createArea,
  listDelivery,
  removeSlot,
  reopenDate,
  setPostalCodes,
  updateArea,
} from './delivery.server.ts';
import {
  areaCreateSchema,
  areaParamsSchema,
  areaRowSchema,
  areaUpdateSchema,
  closeDateSchema,
  closedAnswerSchema,
  closedDateParamsSchema,
  DELIVERY_API,
  deliveryListSchema,
  postalCodesSchema,
  slotBodySchema,
  slotParamsSchema,
} from './delivery-schemas.ts';
import { API_LIMIT, WRITE_LIMIT } from './rate-limits.ts';

const MANAGE = { permission: 'shop.manage' } as const;
const AREAS = `${DELIVERY_API}/areas`;
const SLOTS = `${AREAS}/:id/slots`;
const CLOSED_DATES = `${AREAS}/:id/closed-dates`;

/** Every delivery route declares the permission and checks the scope before the body. */
const read = {
  staff: MANAGE,
  rateLimit: API_LIMIT,
  preValidation: assertDeliveryAccess,
};
const write = { ...read, bodyLimit: 64 * 1024, rateLimit: WRITE_LIMIT };
/** What most writes answer: the area as it now is. */
const area = jsonAnswer(areaRowSchema, 'The area');

/**
 * Delivery in the back office (decision 142): areas, postal codes, weekly slots and closed days,
 * with `shop.manage` for the area's site (403 otherwise, before the body is read). A change that
 * would break a booked order's slot is 409 with the dates or the orders, and writes nothing.
 */
export function registerDelivery(app: ZodApp) {
  adminRoute(app, 'GET', DELIVERY_API, {
    ...read,
    summary: 'The delivery areas with their postal codes, weekly slots and closed dates',
    description:
      'Each slot lists its upcoming dates with places sold; closed dates from today on, with the orders booked on each.',
    answer: jsonAnswer(deliveryListSchema, 'The areas'),
    problems: [401, 403, 429],
    handler: (request) => listDelivery(request),
  });
  registerAreas(app);
  registerSlots(app);
  registerClosedDates(app);
}

/** Areas added, renamed or turned off, and their postal codes. */
function registerAreas(app: ZodApp) {
  adminRoute(app, 'POST', AREAS, {
    ...write,
    summary: 'Adds a delivery area to the shop',
    body: areaCreateSchema,
    answer: jsonAnswer(areaRowSchema, 'The new area'),
    problems: [400, 401, 403, 413, 429],
    handler: (request) => createArea(request, request.body),
  });
  adminRoute(app, 'PUT', `${AREAS}/:id`, {
    ...write,
    summary: 'Renames an area or turns it on or off',
    description:
      'An inactive area’s postal codes are not delivered to; orders already placed keep their slot. Turning off an area with upcoming orders is 409 (`/problems/orders-in-area`) listing them, and nothing is written; sent again with `confirm: true` and those orders’ ids, it goes through.',
    params: areaParamsSchema,
    body: areaUpdateSchema,
    answer: area,
    problems: [400, 401, 403, 404, 409, 413, 429],
    handler: (request) => updateArea(request, request.params.id, request.body),
  });
  adminRoute(app, 'PUT', `${AREAS}/:id/postal-codes`, {
    ...write,
    summary: 'Sets the area’s postal codes',
    description:
      'Codes are kept without spaces, in upper case. A code in another area of the site is 409 naming that area (`taken`), and nothing is written. Removing codes with upcoming orders delivered to them is 409 (`/problems/orders-in-postal-codes`) listing those orders, unless sent again with `confirm: true` and their ids.',
    params: areaParamsSchema,
    body: postalCodesSchema,
    answer: area,
    problems: [400, 401, 403, 404, 409, 413, 429],
    handler: (request) => setPostalCodes(request, request.params.id, request.body),
  });
}

/** The area's weekly slots: added, changed and removed, never under a booked order. */
function registerSlots(app: ZodApp) {
  adminRoute(app, 'POST', SLOTS, {
    ...write,
    summary: 'Adds a weekly slot to the area',
    description: 'One slot per weekday and start time (409 for a second).',
    params: areaParamsSchema,
    body: slotBodySchema,
    answer: area,
    problems: [400, 401, 403, 404, 409, 413, 429],
    handler: (request) => addSlot(request, request.params.id, request.body),
  });
  adminRoute(app, 'PUT', `${SLOTS}/:slotId`, {
    ...write,
    summary: 'Changes a weekly slot: capacity, cut-off, or (with no orders booked) its time',
    description:
      'The capacity changes the calendar and every upcoming dated slot together; below the places sold on a date it is 409 (`/problems/slot-booked`: `booked` orders on the `affected` dates) and nothing is written. The weekday, start or end time change only while no upcoming date has orders.',
    params: slotParamsSchema,
    body: slotBodySchema,
    answer: area,
    problems: [400, 401, 403, 404, 409, 413, 429],
    handler: (request) =>
      changeSlot(request, request.params.id, request.params.slotId, request.body),
  });
  adminRoute(app, 'DELETE', `${SLOTS}/:slotId`, {
    ...write,
    summary: 'Removes a weekly slot',
    description: 'Refused (409 with the dates) while an upcoming date has orders in it.',
    params: slotParamsSchema,
    answer: area,
    problems: [400, 401, 403, 404, 409, 429],
    handler: (request) => removeSlot(request, request.params.id, request.params.slotId),
  });
}

/** Dates closed for the area (public holidays) and opened again. */
function registerClosedDates(app: ZodApp) {
  adminRoute(app, 'POST', CLOSED_DATES, {
    ...write,
    summary: 'Closes a date of the area (a public holiday)',
    description:
      'With orders booked on the date, 409 (`/problems/orders-on-date`) lists them and nothing is written; sent again with `confirm: true` and those orders’ ids, the date closes and the answer lists the orders to contact. They keep their slot.',
    params: areaParamsSchema,
    body: closeDateSchema,
    answer: jsonAnswer(closedAnswerSchema, 'The area and the orders on the date'),
    problems: [400, 401, 403, 404, 409, 413, 429],
    handler: (request) => closeDate(request, request.params.id, request.body),
  });
  adminRoute(app, 'DELETE', `${CLOSED_DATES}/:date`, {
    ...write,
    summary: 'Opens a closed date again',
    params: closedDateParamsSchema,
    answer: area,
    problems: [400, 401, 403, 404, 429],
    handler: (request) => reopenDate(request, request.params.id, request.params.date),
  });
}
