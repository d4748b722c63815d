import { useEffect } from 'react';
import { useParams } from 'react-router';
import { STORAGE_KEYS } from '../../../common/constants';
import { storage } from '../../app/storage';
import { PlaceholderPage } from '../placeholder/PlaceholderPages';

/** The customer page comes with a later change; it already remembers the customer (spec 4, storage key). */
export function AccountPage() {
  const { id } = useParams();
  useEffect(() => {
    if (id && /^\d+$/.test(id)) storage.set(STORAGE_KEYS.customer, id);
  }, [id]);
  return <PlaceholderPage titleKey="account.title" />;
}
