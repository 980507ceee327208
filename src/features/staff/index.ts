export { type AccessGrant, can, canSomewhere, permissionsOf } from './access.ts';
export { PERMISSIONS, type Permission } from './permissions.ts';
export * from './schemas.ts';
