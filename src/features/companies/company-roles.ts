import { type CompanyRole, companyRoleSchema } from '../../../contracts/companies.ts';

/** How each company role reads on screen. */
export const COMPANY_ROLE_LABELS: Record<CompanyRole, string> = {
  admin: 'Admin',
  installer: 'Installer',
  viewer: 'Viewer',
};

/** The company roles as choices of a select. */
export const ROLE_CHOICES = companyRoleSchema.options.map((role) => ({
  value: role,
  label: COMPANY_ROLE_LABELS[role],
}));
