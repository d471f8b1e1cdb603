// What the forms operations read: rm_builder_forms, rm_builder_submissions and rm_builder_form_refs
// (projections/src/builder/), joined with the sites' read models for what a published site holds.
import type { FormField, SubmissionValues } from '@tributary/domain';

export interface FormView {
  formId: string;
  ownerAgentId: string;
  name: string;
  fields: FormField[];
  successMessage: string;
  /** Submissions kept (received, not deleted). */
  submissionCount: number;
  /** Submissions received after the newest one the owner has seen (all of them before they first look). */
  unreadCount: number;
  /** The unread ones by the site they came through, by siteId; sites with none are left out. */
  unreadBySite: { siteId: string; count: number }[];
  /** The receivedAt of the newest submission the owner has seen; null before they first look. */
  seenThrough: string | null;
  createdAt: string;
  updatedAt: string;
}

export interface SubmissionView {
  submissionId: string;
  formId: string;
  siteId: string;
  values: SubmissionValues;
  receivedAt: string;
}

/** A position in a form's submissions, newest first: the last one a page held. */
export interface SubmissionPosition {
  receivedAt: string;
  submissionId: string;
}

/** What a published site answers for one of its forms. */
export type SiteFormStatus =
  /** Published, not suspended, its published version holds the form, and the form is its owner's. */
  | { state: 'accepting' }
  | { state: 'suspended'; reason: string }
  /** No such site, not published, or its published version does not hold a live form of that id. */
  | { state: 'absent' };

export interface FormReadModels {
  /** The live forms of an owner, oldest first. */
  formsOf(ownerAgentId: string): Promise<FormView[]>;
  /** A live form, whoever owns it (the operations check the owner). */
  form(formId: string): Promise<FormView | null>;
  /** Up to `limit` submissions of a form, newest first, after `after` when given. */
  submissionsOf(
    formId: string,
    page: { limit: number; after?: SubmissionPosition },
  ): Promise<SubmissionView[]>;
  submission(submissionId: string): Promise<SubmissionView | null>;
  /**
   * The sites of `ownerAgentId` whose draft (its head revision) holds this form, as sitesOf orders them:
   * one read of the owner's sites and their drafts' form references, whatever the drafts hold.
   */
  sitesDraftingForm(ownerAgentId: string, formId: string): Promise<string[]>;
  /** The sites whose published version holds this form. */
  sitesPublishingForm(formId: string): Promise<string[]>;
  siteFormStatus(siteId: string, formId: string): Promise<SiteFormStatus>;
}
