import { describe, expect, it } from 'vitest';
import {
  ContentVersion,
  changesContent,
  changesVisitors,
  endsTransaction,
  raisesCountOnly,
} from './content-changes.ts';

describe('changesContent (decision 033)', () => {
  it.each([
    'insert into "pages" ("id") values ($1)',
    'update "products" set "stock" = $1 where "id" = $2',
    'delete from "product_reviews" where "id" = $1',
    'truncate table "pages", "products"',
    'insert into "product_date_stock" ("product_id") values ($1) on conflict do nothing',
    'create index x on pages (path)',
    'with moved as (delete from "pages" returning *) select * from moved',
    'update "some_table_added_later" set "x" = 1',
    'insert into "campaigns" ("id") values ($1)',
    'update "recipes" set "like_count" = 5 where "id" = $1',
    'update "recipes" set "like_count" = "like_count" + 1, "title" = $2 where "id" = $1',
    'update "products" set "like_count" = "products"."like_count" + 1',
    'update "products" set "like_count" = "like_count" + 1 where "id" = $1; delete from "pages"',
  ])('a content change: %s', (statement) => {
    expect(changesContent(statement)).toBe(true);
  });

  it.each([
    'select "id" from "pages" where "path" = $1',
    '  SELECT 1',
    'insert into "sessions" ("id", "data") values ($1, $2) on conflict ("id") do update set "data" = $2',
    'update "carts" set "updated_at" = now() where "id" = $1',
    'delete from "cart_line_items" where "cart_id" = $1',
    'insert into "orders" ("id") values ($1)',
    'insert into "subscriptions" ("email") values ($1) on conflict do nothing',
    'insert into "subscription_mails" ("email") values ($1)',
    'insert into "campaign_participations" ("email") values ($1)',
    'insert into "lunch_menus" ("id", "weeks") values ($1, $2)',
    'insert into "school_votes" ("vote_id") values ($1) on conflict do nothing',
    'select * from "products" for update',
    'begin',
    'commit',
  ])('not a content change: %s', (statement) => {
    expect(changesContent(statement)).toBe(false);
  });

  it.each([
    'update "recipes" set "like_count" = "recipes"."like_count" + 1 where "recipes"."id" = $1 returning "like_count"',
    'update "products" set "like_count" = "products"."like_count" + 1 where "products"."id" = $1 returning "like_count"',
    'UPDATE recipes SET like_count = like_count + 1 WHERE id = $1',
  ])('a like count raised, not a content change (decision 053): %s', (statement) => {
    expect(raisesCountOnly(statement)).toBe(true);
    expect(changesContent(statement)).toBe(false);
  });

  it('tells a transaction’s end', () => {
    expect(endsTransaction('commit')).toBe(true);
    expect(endsTransaction('ROLLBACK')).toBe(true);
    expect(endsTransaction('select 1')).toBe(false);
  });
});

describe('changesVisitors (decision 157)', () => {
  it('is a write to a session or a cart’s lines, nothing else', () => {
    for (const statement of [
      'insert into "sessions" ("id", "data", "expires_at") values ($1, $2, $3)',
      'update "carts" set "updated_at" = now() where "id" = $1',
      'delete from "cart_line_items" where "cart_id" = $1',
      'with moved as (delete from cart_line_items returning *) select 1',
    ]) {
      expect(changesVisitors(statement), statement).toBe(true);
    }
    for (const statement of [
      'select "data" from "sessions" where "id" = $1',
      'update "orders" set "status" = $1 where "id" = $2',
      'insert into "pages" ("title") values ($1)',
    ]) {
      expect(changesVisitors(statement), statement).toBe(false);
    }
  });

  it('moves the visitors’ version, not the content’s', () => {
    const version = new ContentVersion();
    const content = version.current;
    const visitors = version.visitors;
    version.visitorsChanged();
    expect(version.visitors).toBe(visitors + 1);
    expect(version.current).toBe(content);
  });
});

describe('ContentVersion', () => {
  it('moves on a bump and tells its listeners', () => {
    const version = new ContentVersion();
    const seen: number[] = [];
    version.onChange((v) => seen.push(v));
    const before = version.current;
    version.bump();
    expect(version.current).toBe(before + 1);
    expect(seen).toEqual([before + 1]);
  });
});
