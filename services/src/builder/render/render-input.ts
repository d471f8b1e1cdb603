// What the renderer is given and what it gives back. It reads nothing else: no clock, no store, no
// configuration, so the same inputs always give the same bytes (docs/builder.md#rendering).
import type { DraftDocument, SiteTheme } from '@tributary/domain';

export interface RenderSiteSettings {
  title: string;
  theme: SiteTheme;
  description?: string | undefined;
  /** A BCP 47 language tag for `<html lang>`; anything that is not one renders as `en`. */
  language?: string | undefined;
  /** Shown when a page is shared (og:image, a large social card); stored under /_media/ like any image. */
  socialImage?: RenderMedia | undefined;
  /** The browser tab's icon. */
  favicon?: RenderMedia | undefined;
}

/** A media item as the renderer needs it: its stored blob and, when known, its pixel size. */
export interface RenderMedia {
  sha256: string;
  contentType: string;
  /** Bytes of the stored blob (the manifest entry's length). */
  length: number;
  width?: number | undefined;
  height?: number | undefined;
}

export type RenderFormFieldType =
  'text' | 'email' | 'url' | 'tel' | 'number' | 'date' | 'textarea' | 'select' | 'checkbox';

export interface RenderFormField {
  /** The submitted field name (`website` is the honeypot's and not a form field's). */
  name: string;
  label: string;
  type: RenderFormFieldType | (string & {});
  required?: boolean | undefined;
  options?: readonly string[] | undefined;
  maxLength?: number | undefined;
  help?: string | undefined;
}

/** A form as the renderer needs it (the forms part maps its definitions to this). */
export interface RenderForm {
  formId: string;
  title?: string | undefined;
  fields: readonly RenderFormField[];
  submitLabel?: string | undefined;
}

export interface RenderInput {
  document: DraftDocument;
  site: RenderSiteSettings;
  /** mediaId → the item; a draft naming one that is absent here is `builder.unknown_reference`. */
  media: ReadonlyMap<string, RenderMedia>;
  /** formId → the form; likewise. */
  forms: ReadonlyMap<string, RenderForm>;
}

/** One file of a rendered version. */
export interface RenderedFile {
  path: string;
  contentType: string;
  sha256: string;
  length: number;
  /** The bytes, for what the renderer made; absent for media, whose blob is already stored. */
  bytes?: Buffer | undefined;
}
