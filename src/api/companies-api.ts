import {
  acceptedInvitationSchema,
  type CompanyDetails,
  type CompanyRole,
  companySchema,
  type InvitationRequest,
  invitationViewSchema,
  type JoinRequest,
  type LogoUpload,
  myCompanySchema,
} from '../../contracts/companies.ts';
import type { ApiClient } from './api-client.ts';
import { statusOf } from './api-error.ts';

const withSignal = (signal?: AbortSignal) => (signal ? { signal } : {});

/** `GET /companies/mine`: the caller's company, or null when they belong to none (404). @throws ApiError */
export async function fetchMyCompany(api: ApiClient, signal?: AbortSignal) {
  try {
    return myCompanySchema.parse(await api('/companies/mine', withSignal(signal)));
  } catch (error) {
    if (statusOf(error) === 404) return null;
    throw error;
  }
}

/** `PUT /companies/mine`: name and address (its admins). @throws ApiError */
export async function saveCompanyDetails(api: ApiClient, body: CompanyDetails, signal?: AbortSignal) {
  return companySchema.parse(await api('/companies/mine', { method: 'PUT', body, ...withSignal(signal) }));
}

/** `POST /companies/mine/invitations`: a mail with a link goes to the address. @throws ApiError */
export async function inviteMember(api: ApiClient, body: InvitationRequest, signal?: AbortSignal) {
  return myCompanySchema.parse(
    await api('/companies/mine/invitations', { method: 'POST', body, ...withSignal(signal) }),
  );
}

/** `DELETE /companies/mine/invitations/{id}`: the link stops working. @throws ApiError */
export async function withdrawInvitation(api: ApiClient, id: number, signal?: AbortSignal) {
  return myCompanySchema.parse(
    await api(`/companies/mine/invitations/${id}`, { method: 'DELETE', ...withSignal(signal) }),
  );
}

/** `PUT /companies/mine/members/{id}`: another company role. @throws ApiError */
export async function setMemberRole(api: ApiClient, userId: number, role: CompanyRole, signal?: AbortSignal) {
  return myCompanySchema.parse(
    await api(`/companies/mine/members/${userId}`, { method: 'PUT', body: { role }, ...withSignal(signal) }),
  );
}

/** `DELETE /companies/mine/members/{id}`: the person loses the company's sites at once. @throws ApiError */
export async function removeMember(api: ApiClient, userId: number, signal?: AbortSignal) {
  await api(`/companies/mine/members/${userId}`, { method: 'DELETE', ...withSignal(signal) });
}

/** `POST /auth/invitations/view`: what the link offers (no sign-in needed). @throws ApiError */
export async function viewInvitation(api: ApiClient, token: string, signal?: AbortSignal) {
  return invitationViewSchema.parse(
    await api('/auth/invitations/view', { method: 'POST', body: { token }, ...withSignal(signal) }),
  );
}

/** `POST /auth/invitations/join`: make the account and join. @throws ApiError */
export async function joinByInvitation(
  api: ApiClient,
  token: string,
  body: JoinRequest,
  signal?: AbortSignal,
) {
  return acceptedInvitationSchema.parse(
    await api('/auth/invitations/join', { method: 'POST', body: { token, ...body }, ...withSignal(signal) }),
  );
}

/** `POST /companies/invitations/accept`: the signed-in account joins. @throws ApiError */
export async function acceptInvitation(api: ApiClient, token: string, signal?: AbortSignal) {
  return myCompanySchema.parse(
    await api('/companies/invitations/accept', { method: 'POST', body: { token }, ...withSignal(signal) }),
  );
}

/** `POST /companies/mine/handovers/{id}/accept` or `…/decline` (the company's admins). @throws ApiError */
export async function decideHandover(
  api: ApiClient,
  id: number,
  decision: 'accept' | 'decline',
  signal?: AbortSignal,
) {
  return myCompanySchema.parse(
    await api(`/companies/mine/handovers/${id}/${decision}`, { method: 'POST', ...withSignal(signal) }),
  );
}

/** `PUT /companies/mine/logo`: PNG or JPEG, printed on the commissioning report. @throws ApiError */
export async function saveLogo(api: ApiClient, body: LogoUpload, signal?: AbortSignal) {
  return companySchema.parse(
    await api('/companies/mine/logo', { method: 'PUT', body, ...withSignal(signal) }),
  );
}

/** `DELETE /companies/mine/logo`. @throws ApiError */
export async function removeLogo(api: ApiClient, signal?: AbortSignal) {
  return companySchema.parse(await api('/companies/mine/logo', { method: 'DELETE', ...withSignal(signal) }));
}
