import { Alert, Select, Stack, Text } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { keepPreviousData, useMutation, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from '../../../i18n/use-translation';
import type { Customization } from '../../../../common/api/customizations';
import { DEBOUNCE_MS, TYPEAHEAD_MIN_CHARS } from '../../../../common/constants';
import { ApiError } from '../../../api/client';
import { listCustomerCustomizations } from '../../../api/customizations';
import { customerListQuery } from '../../../api/customers';
import { apiErrorText } from '../../../components/forms';

const SUGGESTIONS = 10;

interface CustomizationExampleProps {
  /** the customer being customized: not offered as its own example */
  customerId: number;
  productKey: string;
  /** the chosen customer's customization of the product, to put in the editor */
  onLoad: (example: Customization) => void;
}

/**
 * Example loading (spec 5): a typeahead over the customers (from 2 characters, 300 ms after typing
 * pauses, the customer search) picks one, whose customization of the same product is then put in the
 * editor; a customer with none says so (spec 8).
 */
export function CustomizationExample({ customerId, productKey, onLoad }: CustomizationExampleProps) {
  const { t } = useTranslation();
  const [search, setSearch] = useState('');
  const [selected, setSelected] = useState<{ value: string; label: string } | null>(null);
  const [filter] = useDebouncedValue(search.trim(), DEBOUNCE_MS);
  const searching = filter.length >= TYPEAHEAD_MIN_CHARS;
  const customers = useQuery({
    ...customerListQuery({ pageOffset: 0, pageLength: SUGGESTIONS, filter }),
    enabled: searching,
    placeholderData: keepPreviousData,
  });
  const load = useMutation({
    mutationFn: async (id: number) => {
      const found = await listCustomerCustomizations(id, productKey);
      return found.data.find((customization) => customization.productKey === productKey) ?? null;
    },
    onSuccess: (example) => {
      if (example) onLoad(example);
    },
  });

  const options = searching
    ? (customers.data?.data ?? [])
        .filter((customer) => customer.id !== customerId)
        .map((customer) => ({ value: String(customer.id), label: customer.name }))
    : [];
  // The chosen customer stays an option, or the field would forget it when the search moves on.
  const data = selected && !options.some((o) => o.value === selected.value) ? [selected, ...options] : options;
  const answered = searching && customers.isSuccess && !customers.isPlaceholderData;

  return (
    <Stack gap="xs">
      <Select
        label={t('customization.example.label')}
        description={t('customization.example.hint', { count: TYPEAHEAD_MIN_CHARS })}
        placeholder={t('customization.example.placeholder')}
        searchable
        clearable
        searchValue={search}
        onSearchChange={setSearch}
        data={data}
        // the server searched already: every answer it gave is a match
        filter={({ options: all }) => all}
        value={selected?.value ?? null}
        onChange={(value, option) => {
          setSelected(value && option ? { value, label: option.label } : null);
          load.reset();
          if (value) load.mutate(Number(value));
        }}
        nothingFoundMessage={answered ? t('customization.example.noMatch') : undefined}
        data-testid="customization-example"
      />
      {load.isPending && (
        <Text size="sm" role="status">
          {t('customization.example.loading')}
        </Text>
      )}
      {load.isSuccess && load.data && (
        <Text size="sm" role="status" data-testid="customization-example-loaded">
          {t('customization.example.loaded', { customer: selected?.label ?? '' })}
        </Text>
      )}
      {((load.isSuccess && !load.data) || (load.isError && isNotFound(load.error))) && (
        <Alert color="orange" role="alert" data-testid="customization-example-none">
          {t('customization.example.none')}
        </Alert>
      )}
      {load.isError && !isNotFound(load.error) && (
        <Alert color="red" role="alert" data-testid="customization-example-error">
          {apiErrorText(load.error, t)}
        </Alert>
      )}
    </Stack>
  );
}

const isNotFound = (error: unknown) => error instanceof ApiError && error.status === 404;
