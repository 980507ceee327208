ALTER TABLE "customers" ADD COLUMN "locked_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "customers" ADD COLUMN "locked_reason" text;--> statement-breakpoint
-- Staff who may lock a customer's account and send a reset link (decision 146), and shop staff
-- who may read customers.
UPDATE "staff_roles" SET "permissions" = array_append("permissions", 'customers.manage')
  WHERE "key" IN ('admin', 'customer-service', 'shop-staff')
    AND NOT ('customers.manage' = ANY ("permissions"));--> statement-breakpoint
UPDATE "staff_roles" SET "permissions" = array_append("permissions", 'customers.read')
  WHERE "key" = 'shop-staff' AND NOT ('customers.read' = ANY ("permissions"));
