import { count, desc, eq } from 'drizzle-orm';
import type { AuditPage } from '../../../shared/schemas/admin.ts';
import type { Database } from '../../db/client.ts';
import { adminAudit, users } from '../../db/schema.ts';
import { paginate } from '../../lib/pagination.ts';

const PAGE_SIZE = 25;

/**
 * One page of the audit trail (record.ts), newest first, each entry with its operator's e-mail
 * (none for the system's own entries).
 */
export async function readAuditPage(db: Database, page: number): Promise<AuditPage> {
  const [rows, [total]] = await Promise.all([
    db
      .select({ entry: adminAudit, email: users.email })
      .from(adminAudit)
      .leftJoin(users, eq(users.id, adminAudit.adminId))
      .orderBy(desc(adminAudit.id))
      .limit(PAGE_SIZE)
      .offset((page - 1) * PAGE_SIZE),
    db.select({ total: count() }).from(adminAudit),
  ]);
  return {
    entries: rows.map(({ entry, email }) => ({
      id: entry.id,
      admin: email,
      action: entry.action,
      targetType: entry.targetType,
      targetId: entry.targetId,
      before: entry.before,
      after: entry.after,
      createdAt: entry.createdAt.toISOString(),
    })),
    pagination: paginate(total?.total ?? 0, page, PAGE_SIZE),
  };
}
