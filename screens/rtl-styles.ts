/**
 * Right-to-left pages (SPEC.md §9: right-to-left layout for right-to-left languages, and Arabic
 * is specially styled). The page sets `dir` and `lang` on <html> (worker/render/render-page.tsx),
 * so nothing here needs markup of its own; layout CSS elsewhere uses logical properties
 * (padding-inline, inset-inline) and mirrors by itself.
 */
export const RTL_CSS = `
html:lang(ar){--font:"Segoe UI","Noto Sans Arabic","Noto Naskh Arabic","Geeza Pro",Tahoma,Arial,sans-serif}
html:lang(ar) body{line-height:1.7}
html:lang(ar) h1{line-height:1.45}
html:lang(ar) .button{line-height:1.3}
html:lang(ar) *{letter-spacing:normal}
[dir=rtl] .rtl-mirror{transform:scaleX(-1)}
[dir=rtl] input[type=tel],[dir=rtl] input[type=email]{direction:ltr;text-align:right}
`;
