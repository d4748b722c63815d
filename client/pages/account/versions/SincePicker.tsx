import { Button, Group, NativeSelect } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import type { Version } from '../../../../common/api/catalogue';
import type { Licence } from '../../../../common/api/licences';
import { versionChoicesQuery } from '../../../api/catalogue';
import { useLocalize } from '../../../app/locale';
import { useTranslation } from '../../../i18n/use-translation';
import { changesPath } from '../../changes/changes-path';

/**
 * "What changed since the version I run": the reader picks the version installed among those the
 * licence allows, and opens the page of every newer version's notes.
 */
export function SincePicker({
  customerId,
  licence,
  current = '',
  loaded,
}: {
  customerId: number;
  licence: Licence;
  /** the version picked before (the page of what changed since it) */
  current?: string;
  /** the versions a list shows already, newest first: offered without asking again */
  loaded?: Version[];
}) {
  const { t } = useTranslation();
  const localize = useLocalize();
  const navigate = useNavigate();
  const choices = useQuery({ ...versionChoicesQuery(licence.productKey, customerId), enabled: loaded === undefined });
  const [picked, setPicked] = useState(current);
  // the newest has nothing newer: it is no choice, unless it is the one picked before
  const versions = (loaded ?? choices.data?.data ?? []).filter(
    (version, index) => index > 0 || version.semVer === current,
  );
  if (versions.length === 0) return null;
  const listed = current === '' || versions.some((version) => version.semVer === current);
  return (
    <form
      onSubmit={(event) => {
        event.preventDefault();
        if (picked) void navigate(localize(changesPath(customerId, licence.productKey, picked)));
      }}
      data-testid="since-picker"
    >
      <Group gap="xs" align="flex-end" wrap="wrap">
        <NativeSelect
          label={t('releases.since.label')}
          value={picked}
          onChange={(event) => setPicked(event.currentTarget.value)}
          data={[
            ...(current ? [] : [{ value: '', label: t('releases.since.choose') }]),
            ...(listed ? [] : [{ value: current, label: current }]),
            ...versions.map((version) => ({ value: version.semVer, label: version.semVer })),
          ]}
          maw={360}
          style={{ flex: '1 1 12rem' }}
          data-testid="since-version"
        />
        <Button type="submit" variant="default" disabled={!picked || picked === current} data-testid="since-open">
          {t('releases.since.open')}
        </Button>
      </Group>
    </form>
  );
}
