// The forms operations, in catalogue order; the builder's operations list takes them.
import type { AnyOperation } from '../pipeline/operation.js';
import { createForm } from './create-form.js';
import { deleteForm } from './delete-form.js';
import { deleteSubmission } from './delete-submission.js';
import { exportSubmissions } from './export-submissions.js';
import { listForms } from './list-forms.js';
import { listSubmissions } from './list-submissions.js';
import { markSubmissionsSeen } from './mark-submissions-seen.js';
import { readSubmissionMail } from './read-submission-mail.js';
import { setSubmissionMail } from './set-submission-mail.js';
import { updateForm } from './update-form.js';
import { submitForm } from './submit-form.js';

export const formOperations: readonly AnyOperation[] = [
  listForms,
  createForm,
  updateForm,
  deleteForm,
  listSubmissions,
  markSubmissionsSeen,
  readSubmissionMail,
  setSubmissionMail,
  exportSubmissions,
  deleteSubmission,
  submitForm,
];
