import { zodResolver } from '@hookform/resolvers/zod';
import { Alert, Button, Checkbox, Group, Select, Stack } from '@mantine/core';
import { Controller, useForm } from 'react-hook-form';
import { z } from 'zod';
import { type SiteRole, siteRoleSchema } from '../../../contracts/sites.ts';
import { useRuntime } from '../../app/runtime-context.tsx';
import { useSave } from '../../app/use-save.ts';
import { changeRoles } from './site-access-api.ts';
import { SITE_ROLES } from './site-access-table.tsx';

/** Someone who can be given access: their id and how the list names them. */
export interface Person {
  id: number;
  label: string;
}

const schema = z.object({
  person: z.custom<Person | null>().refine((person) => Boolean(person), 'Choose who gets access'),
  roles: z.array(siteRoleSchema).min(1, 'Choose at least one role'),
});
type Values = z.infer<typeof schema>;

export interface GrantSiteAccessProps {
  siteId: number;
  /** The picker's label: "Give a user access". */
  label: string;
  placeholder: string;
  /** Who can be chosen now (the matches of a search, or everyone who can be). */
  people: Person[];
  /** The roles ticked at first. */
  defaultRoles: SiteRole[];
  /** What the picker says when nobody matches. */
  nothingFound: string;
  /** For a list searched on the service: called with the text as it is typed. */
  onSearch?: (text: string) => void;
  /** Why the search failed, if it did. */
  searchError?: string | null;
}

/**
 * Give someone roles on a site (`change-roles` creates their access, switched on): choose the
 * person, tick the roles, add. The person is cleared once added; the roles stay for the next.
 */
export function GrantSiteAccess({
  siteId,
  label,
  placeholder,
  people,
  defaultRoles,
  nothingFound,
  onSearch,
  searchError,
}: GrantSiteAccessProps) {
  const { configApi } = useRuntime();
  const form = useForm<Values>({
    resolver: zodResolver(schema),
    defaultValues: { person: null, roles: defaultRoles },
  });
  const save = useSave({ onSaved: () => form.setValue('person', null) });
  const picked = form.watch('person');
  // The one picked stays a choice while the matches change under it.
  const choices = picked && !people.some((p) => p.id === picked.id) ? [picked, ...people] : people;
  const submit = form.handleSubmit(({ person, roles }) => {
    if (!person) return;
    save.save((signal) => changeRoles(configApi, { siteId, userId: person.id, roles }, signal));
  });
  const errors = form.formState.errors;
  const error = save.error ?? searchError;
  return (
    <form onSubmit={submit} noValidate aria-label={label}>
      <Stack gap="xs">
        <Group align="flex-end" gap="sm">
          <Controller
            control={form.control}
            name="person"
            render={({ field }) => (
              <Select
                label={label}
                placeholder={placeholder}
                searchable
                {...(onSearch && { filter: ({ options }) => options, onSearchChange: onSearch })}
                data={choices.map((p) => ({ value: String(p.id), label: p.label }))}
                value={field.value ? String(field.value.id) : null}
                onChange={(value) => field.onChange(choices.find((p) => String(p.id) === value) ?? null)}
                onBlur={field.onBlur}
                error={errors.person?.message}
                w={{ base: '100%', sm: 320 }}
                nothingFoundMessage={nothingFound}
              />
            )}
          />
          <Controller
            control={form.control}
            name="roles"
            render={({ field }) => (
              <Checkbox.Group
                value={field.value}
                onChange={(value) => field.onChange(value as SiteRole[])}
                label="Roles"
                error={errors.roles?.message}
              >
                <Group gap="sm" mt={6}>
                  {SITE_ROLES.map((role) => (
                    <Checkbox key={role.value} value={role.value} label={role.label} />
                  ))}
                </Group>
              </Checkbox.Group>
            )}
          />
          <Button type="submit" variant="light" loading={save.pending}>
            Add to site
          </Button>
        </Group>
        {error ? (
          <Alert color="red" role="alert" p="xs">
            {error}
          </Alert>
        ) : null}
      </Stack>
    </form>
  );
}
