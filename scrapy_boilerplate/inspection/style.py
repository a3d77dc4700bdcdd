"""The report's one stylesheet: layout, the page's tags, the verdicts, and the CSS-only toggles.

The view switch and the decision filters are radio buttons read by ``:has()`` selectors, so the
report needs no script and its Content-Security-Policy can forbid every script and request.
"""

from __future__ import annotations

REMOVED_TEXT = "#5f5f5f"  # grey text of removed parts (5.4:1 on their background)
REMOVED_BACKGROUND = "#eeeeee"
KEPT_TEXT = "#111111"
HEADER_BACKGROUND = "#f3f3f3"

CSS = f"""
*{{box-sizing:border-box}}
body{{margin:0;font:15px/1.5 system-ui,-apple-system,"Segoe UI",sans-serif;color:{KEPT_TEXT};background:#fff}}
header.summary{{padding:6px 16px 4px;background:{HEADER_BACKGROUND};border-bottom:1px solid #bbb;font-size:14px;
  line-height:1.4}}
header.summary h1{{font-size:16px;margin:0 0 2px}}
header.summary p,header.summary ul,header.summary ol{{margin:2px 0}}
.line{{white-space:nowrap;overflow:hidden;text-overflow:ellipsis}}
.decisive{{background:#fbe3d3;border-left:4px solid #b8401f;padding:1px 8px}}
.warnings{{list-style:none;padding:0}} .warnings li{{background:#fff4c4;border-left:4px solid #a67c00;padding:0 8px;
  margin:1px 0}}
ol.largest{{padding-left:1.6em}} ol.largest li{{white-space:nowrap;overflow:hidden;text-overflow:ellipsis}}
.controls label{{white-space:nowrap;margin-right:8px}} .controls{{margin-top:2px}}
.legend span{{padding:0 4px;margin-left:4px}}
.layout{{display:grid;grid-template-columns:minmax(0,1fr) minmax(0,24rem)}}
main.page,#output{{grid-column:1;grid-row:1;min-width:0;padding:12px 20px;overflow-wrap:anywhere}}
#output{{display:none;white-space:pre-wrap}}
#output::before{{content:"The model's output, exactly as returned";display:block;font-weight:700;margin-bottom:8px;
  white-space:normal}}
aside.panel{{grid-column:2;grid-row:1;position:sticky;top:0;align-self:start;max-height:100vh;overflow:auto;
  border-left:1px solid #bbb;padding:6px 10px;font-size:13px;background:#fafafa;min-width:0;overflow-wrap:anywhere}}
aside.panel h2{{font-size:15px;margin:4px 0}}
@media (max-width:900px){{.layout{{grid-template-columns:minmax(0,1fr)}}
  aside.panel{{grid-column:1;grid-row:2;position:static;max-height:none;border-left:0;border-top:1px solid #bbb}}}}
ol.decisions{{list-style:none;padding:0;margin:4px 0}}
li.dec{{margin:0 0 5px;padding:3px 6px;border-left:3px solid #8a8a8a;background:#fff}}
li.dec.v-kept{{border-left-color:#2e8b57}} li.dec.off{{opacity:.8}}
li.dec .why{{color:#222}} li.dec .note{{color:#8a4b00}}
.badge{{display:inline-block;padding:0 5px;border-radius:3px;font-size:11px;font-weight:700}}
.b-kp{{background:#2e8b57;color:#fff}} .b-rm{{background:#666;color:#fff}}
code.path{{font-size:11px;color:#333}}
.filters label{{white-space:nowrap;margin-right:6px}}
details{{margin:6px 0}} summary{{cursor:pointer;font-weight:600}}
table.regions{{border-collapse:collapse;font-size:12px;margin-top:4px;width:100%;table-layout:fixed}}
table.regions th,table.regions td{{border:1px solid #ccc;padding:2px 4px;text-align:left;vertical-align:top;
  overflow-wrap:anywhere}}
body:has(#view-output:checked) main.page{{display:none}}
body:has(#view-output:checked) #output{{display:block}}
body:has(#fv-kept:checked) li.v-removed,body:has(#fv-removed:checked) li.v-kept{{display:none}}
body:has(#fs-100:checked) li.s0,body:has(#fs-1000:checked) li.s0,body:has(#fs-1000:checked) li.s1{{display:none}}
span.kp{{color:{KEPT_TEXT};background:#fff}}
span.rm{{color:{REMOVED_TEXT};background:{REMOVED_BACKGROUND}}}
span.rm:hover{{text-decoration:line-through}}
span.x{{outline:1px dashed #b36b00;outline-offset:-1px}}
span.unplaced{{background:#fff2b3;outline:1px dashed #a67c00}}
.dk{{box-shadow:inset 3px 0 0 #2e8b57;padding-left:8px}} .dr{{box-shadow:inset 3px 0 0 #9a9a9a;padding-left:8px}}
span.dk,span.dr{{padding-left:4px}}
a.ref{{font-size:10px;line-height:1;color:#444;background:#e2e2e2;border-radius:3px;padding:0 3px;margin-right:3px;
  text-decoration:none;vertical-align:1px}}
a.ref:hover{{background:#cfcfcf}}
:target{{outline:3px solid #d2691e;scroll-margin-top:40px}}
.media{{color:#666;font-style:italic;font-size:.9em}}
.t-h1{{font-size:1.6em;font-weight:700;margin:.3em 0}} .t-h2{{font-size:1.35em;font-weight:700;margin:.3em 0}}
.t-h3{{font-size:1.15em;font-weight:700;margin:.25em 0}} .t-h4,.t-h5,.t-h6{{font-weight:700}}
.t-p{{margin:0 0 .6em}} .t-ul,.t-ol,.t-dl{{margin:.3em 0}}
.t-li{{display:list-item;margin-left:1.4em}} .t-dd{{margin-left:1.4em}} .t-dt{{font-weight:600}}
.t-pre{{white-space:pre-wrap;font-family:ui-monospace,monospace;font-size:.9em}}
.t-blockquote{{margin:.4em 1em;padding-left:.6em;border-left:2px solid #ccc}}
.t-table{{margin:.4em 0}} .t-tr{{display:flex;flex-wrap:wrap;gap:0 1em;border-bottom:1px solid #eee}}
.t-td,.t-th{{flex:1 1 8em;min-width:0}} .t-th{{font-weight:700}} .t-caption{{font-style:italic}}
.t-b,.t-strong{{font-weight:700}} .t-i,.t-em{{font-style:italic}} .t-code{{font-family:ui-monospace,monospace}}
.t-small{{font-size:.85em}} .t-u{{text-decoration:underline}}
.t-a{{text-decoration:underline;text-decoration-color:#b0b0b0}}
"""
CSP = "default-src 'none'; style-src 'unsafe-inline'; img-src 'none'; form-action 'none'"
