import type { FastifyRequest } from 'fastify';
import { jsonAnswer } from '../../../server/openapi.ts';
import { perMinute } from '../../../server/rate-limit.ts';
import type { ZodApp } from '../../../server/types.ts';
import { adminRoute, queryScope } from '../../staff/index.server.ts';
import {
  CONTENT_IMAGES_API,
  imageChoiceSchema,
  imagesListSchema,
  imagesQuerySchema,
  imageUploadSchema,
  scopeQuerySchema,
} from '../publishing/schemas.ts';
import {
  assertMayChangeImage,
  deleteImage,
  editImage,
  listImages,
  listLibrary,
  openImage,
  replaceImage,
  uploadImage,
} from './library.server.ts';
import {
  deletedSchema,
  MEDIA_ADMIN_API,
  mediaDeleteQuerySchema,
  mediaEditSchema,
  mediaIdParamsSchema,
  mediaImageSchema,
  mediaListSchema,
  mediaQuerySchema,
  mediaReplaceSchema,
} from './schemas.ts';

const READ = perMinute(600);
const WRITE = perMinute(240);
/** Uploads and new files: as many as a staff member sends by hand, not more. */
const UPLOADS = perMinute(60);
/** A data URL of an 8 MiB picture is about 11 MiB. */
const UPLOAD_BODY = 12 * 1024 * 1024;

const editor = { staff: { permission: 'content.edit' } } as const;
/** A route for a site and language named in its query: the guard checks the grant for it. */
const scoped = { staff: { permission: 'content.edit', scope: queryScope } } as const;
const image = jsonAnswer(mediaImageSchema, 'The image with every place it is used');
/**
 * A change of one image: the staff member must be allowed to edit content wherever the image is
 * used, checked before the body is read (403 otherwise).
 */
const onImage = {
  ...editor,
  preValidation: async (request: FastifyRequest) => {
    const id = Number((request.params as { id?: unknown }).id);
    // An id that is no number is refused by the params' schema (400).
    if (!Number.isInteger(id) || id < 1 || id > 2_147_483_647) return;
    await assertMayChangeImage(request, id);
  },
};

/**
 * The image library (decisions 162, 168): choosing and uploading a picture for content of a site
 * and language, and the library's own screen, shared by every site: alt texts per language, the
 * focus point, where an image is used, a new file for it, deleting an unused one.
 */
export function mediaAdminRoutes(app: ZodApp) {
  adminRoute(app, 'POST', CONTENT_IMAGES_API, {
    ...scoped,
    rateLimit: UPLOADS,
    bodyLimit: UPLOAD_BODY,
    summary: 'Uploads a picture (JPEG, PNG or WebP, at most 8 MiB) into the image library',
    description:
      'The file as a data URL; its type is read from its bytes, and it must decode. `alt` is its alt text in `lang`. The image route makes its crops from it.',
    querystring: scopeQuerySchema,
    body: imageUploadSchema,
    answer: jsonAnswer(imageChoiceSchema, 'The stored image'),
    problems: [400, 401, 403, 413, 429],
    handler: (request) =>
      uploadImage(request, { siteId: request.query.site, lang: request.query.lang }, request.body),
  });
  adminRoute(app, 'GET', CONTENT_IMAGES_API, {
    ...scoped,
    rateLimit: READ,
    summary:
      'Images to choose from for a site and language, by their alt text there, newest first, 24 at a time',
    querystring: imagesQuerySchema,
    answer: jsonAnswer(imagesListSchema, 'Images'),
    problems: [400, 401, 403, 429],
    handler: (request) => listImages(request, request.query),
  });
  adminRoute(app, 'GET', MEDIA_ADMIN_API, {
    ...editor,
    rateLimit: READ,
    summary: 'The image library: every image, by its alt text in any language, newest first',
    description: '50 from `offset`. The library is shared by every site.',
    querystring: mediaQuerySchema,
    answer: jsonAnswer(mediaListSchema, 'Images'),
    problems: [400, 401, 403, 429],
    handler: (request) => listLibrary(request, request.query),
  });
  adminRoute(app, 'GET', `${MEDIA_ADMIN_API}/:id`, {
    ...editor,
    rateLimit: READ,
    summary: 'An image: its alt texts, focus point, version and every place it is used',
    description:
      'Places are live pages (teaser and blocks, cards and slides included), recipes, products, news releases and timeline years, and the newest unpublished version of any item: those of the sites and languages the staff member may edit content in; `elsewhere` counts the others.',
    params: mediaIdParamsSchema,
    answer: image,
    problems: [400, 401, 403, 404, 429],
    handler: (request) => openImage(request, request.params.id),
  });
  adminRoute(app, 'PUT', `${MEDIA_ADMIN_API}/:id`, {
    ...onImage,
    rateLimit: WRITE,
    summary: 'Changes alt texts (per language) and the focus point of an image',
    description:
      '`version` is the version the change was made on: 409 (`/problems/stale-version`) with `current` when someone changed the image since. Needs `content.edit` wherever the image is used (403 otherwise), and an alt text for its language. A new focus point gives the crops new addresses.',
    params: mediaIdParamsSchema,
    body: mediaEditSchema,
    answer: image,
    problems: [400, 401, 403, 404, 409, 429],
    handler: (request) => editImage(request, request.params.id, request.body),
  });
  adminRoute(app, 'PUT', `${MEDIA_ADMIN_API}/:id/file`, {
    ...onImage,
    rateLimit: UPLOADS,
    bodyLimit: UPLOAD_BODY,
    summary: 'A new file for an image: every place that shows it shows the new picture',
    description:
      'Checked as an upload is (JPEG, PNG or WebP by its bytes, at most 8 MiB, it decodes, at most 40 megapixels). Needs `content.edit` wherever the image is used; `version` as for a change (409 when stale). The crops get new addresses and cached pages are made again.',
    params: mediaIdParamsSchema,
    body: mediaReplaceSchema,
    answer: image,
    problems: [400, 401, 403, 404, 409, 413, 429],
    handler: (request) => replaceImage(request, request.params.id, request.body),
  });
  adminRoute(app, 'DELETE', `${MEDIA_ADMIN_API}/:id`, {
    ...onImage,
    rateLimit: WRITE,
    summary: 'Deletes an image nothing uses, with its files',
    description:
      'Refused with 409 (`/problems/image-in-use`), with `uses` and `elsewhere` as the image shows them, while a live row or a draft uses it; 409 (`/problems/stale-version`) when `version` is not the newest; 403 when it is used where the staff member may not edit.',
    params: mediaIdParamsSchema,
    querystring: mediaDeleteQuerySchema,
    answer: jsonAnswer(deletedSchema, 'The id of the deleted image'),
    problems: [400, 401, 403, 404, 409, 429],
    handler: (request) => deleteImage(request, request.params.id, request.query.version),
  });
}
