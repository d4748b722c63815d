import type { DB } from '.';

export async function seedDemoData(_db: DB): Promise<boolean> {
  return false;
}
