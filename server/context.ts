import type { Config } from './config';
import type { DB, DialectName } from './db';
import type { Mailer } from './mail/types';
import type { BackgroundTasks } from './tasks';

/** What every area needs, built once by buildApp and reachable as `app.ctx`. */
export interface AppContext {
  config: Config;
  db: DB;
  dialect: DialectName;
  mail: Mailer;
  tasks: BackgroundTasks;
}

declare module 'fastify' {
  interface FastifyInstance {
    ctx: AppContext;
  }
}
