import { formatDayMonthYear } from '../../../common/format';
import type { Locale } from '../../../common/roles';
import type { AppContext } from '../../context';
import type { DB } from '../../db';
import type { InstanceMail } from '../../mail/types';
import { pageLink } from '../notifications/events';
import * as repo from './repo';
import type { InstanceRow } from './repo';

/**
 * The mails of an instance's end (docs/instances.md): its archive for non-payment and the deletion
 * of its data, each to the customer's business owners and account executive in their language,
 * written to the outbox in the transaction of the move they tell of, so each is sent once.
 */

interface Addressee {
  email: string;
  locale: Locale;
  base: InstanceMail;
}

async function addresseesOf(ctx: AppContext, executor: DB, instance: InstanceRow): Promise<Addressee[]> {
  const customer = await repo.customerFacts(executor, instance.customerId);
  if (!customer) return [];
  const recipients = await repo.instanceMailRecipients(executor, instance.customerId);
  return recipients.map((recipient) => ({
    email: recipient.email,
    locale: recipient.preferredLocale,
    base: {
      fullName: recipient.fullName,
      customerName: customer.name,
      instanceName: instance.name,
      link: pageLink(ctx, recipient.preferredLocale, `/accounts/${instance.customerId}`),
    },
  }));
}

export async function tellArchived(
  ctx: AppContext,
  executor: DB,
  instance: InstanceRow,
  deletion: { delayInDays: number; deleteAt: Date },
) {
  for (const { email, locale, base } of await addresseesOf(ctx, executor, instance)) {
    await ctx.mail.send(
      {
        to: email,
        template: 'instanceArchived',
        locale,
        data: {
          ...base,
          deleteDataDelayInDays: deletion.delayInDays,
          deleteOn: formatDayMonthYear(deletion.deleteAt, locale),
        },
      },
      executor,
    );
  }
}

export async function tellDataDeleted(ctx: AppContext, executor: DB, instance: InstanceRow) {
  for (const { email, locale, base } of await addresseesOf(ctx, executor, instance)) {
    await ctx.mail.send({ to: email, template: 'instanceDataDeleted', locale, data: base }, executor);
  }
}
