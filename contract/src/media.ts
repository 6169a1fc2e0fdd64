/**
 * Responsive photo variants. Every stored listing photo also exists 320, 640 and 1280 px
 * wide in AVIF and WebP. API answers describe them compactly beside the JPEG's `imageUrl` (which
 * stays the fallback for browsers that take neither); `variantSrcset` builds a `srcset` from that.
 */
export const IMAGE_VARIANT_FORMATS = ['avif', 'webp'] as const;
export type ImageVariantFormat = (typeof IMAGE_VARIANT_FORMATS)[number];

export interface ImageVariants {
  /** URL template with `{width}` and `{format}`, e.g. "/uploads/<uuid>-w{width}.{format}". */
  url: string;
  /** Widths available, in px, ascending (each file is exactly that wide). */
  widths: number[];
  formats: ImageVariantFormat[];
}

/** `srcset` of one format, e.g. "/uploads/<uuid>-w320.avif 320w, /uploads/<uuid>-w640.avif 640w, …". */
export function variantSrcset(variants: ImageVariants, format: ImageVariantFormat): string {
  return variants.widths
    .map((w) => `${variants.url.replace('{width}', String(w)).replace('{format}', format)} ${w}w`)
    .join(', ');
}
