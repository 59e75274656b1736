import {
  type FieldError,
  type FieldPath,
  type FieldValues,
  get,
  type RegisterOptions,
  type UseFormRegisterReturn,
  type UseFormReturn,
} from 'react-hook-form';

/** A form field's props for a Mantine input: its registration, and the message of its error. */
export type FieldProps<N extends string> = UseFormRegisterReturn<N> & { error: string | undefined };

/**
 * Register a field of a react-hook-form form and show its error under the input: spread onto a
 * Mantine input. Reading the error through `formState` keeps the form re-rendering when it
 * changes.
 * @example <TextInput label="Name" required {...fieldProps(form, 'name')} />
 */
export function fieldProps<T extends FieldValues, N extends FieldPath<T>>(
  form: Pick<UseFormReturn<T>, 'register' | 'formState'>,
  name: N,
  options?: RegisterOptions<T, N>,
): FieldProps<N> {
  const error: FieldError | undefined = get(form.formState.errors, name);
  return { ...form.register(name, options), error: error?.message };
}
