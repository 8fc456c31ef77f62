/** SPEC.md §9 QR code: the default size, in CSS pixels (apart, so showing a code loads no drawing). */
export const QR_CODE_SIZE = 256;
