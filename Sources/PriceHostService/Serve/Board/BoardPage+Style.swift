extension BoardPage {
    /// The page's style sheet: light and dark, one column on a phone, a grid of cards on a wider screen.
    static let style = #"""
:root{color-scheme:light dark;--bg:#f6f7f9;--card:#fff;--fg:#16181d;--muted:#596170;--line:#d9dde3;--accent:#1f6feb;
--stale-bg:#fff1c2;--stale-fg:#6b4a00;--bad-bg:#ffe1df;--bad-fg:#8a1c12;--ok:#1a7f37}
@media (prefers-color-scheme:dark){:root{--bg:#0f1115;--card:#181b21;--fg:#e8eaee;--muted:#a0a8b6;--line:#2c313a;--accent:#6ea8ff;
--stale-bg:#4a3a05;--stale-fg:#ffd866;--bad-bg:#4d1712;--bad-fg:#ffb4ab;--ok:#56d364}}
*{box-sizing:border-box}
body{margin:0;background:var(--bg);color:var(--fg);font:16px/1.4 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif}
header,footer{display:flex;flex-wrap:wrap;gap:.25rem 1rem;align-items:baseline;padding:.75rem 1rem}
h1{font-size:1.1rem;margin:0}
#status{margin:0;color:var(--muted);font-size:.9rem}
#status.bad{color:var(--bad-fg)}
main{display:grid;gap:1rem;padding:0 1rem 1rem;grid-template-columns:repeat(auto-fill,minmax(min(100%,22rem),1fr))}
.card{background:var(--card);border:1px solid var(--line);border-radius:.6rem;padding:.9rem 1rem;min-width:0}
.card h2{font-size:1rem;margin:0;font-weight:600}
.card h2 .pair{color:var(--muted);font-weight:400}
.big{margin:.2rem 0 0;font-size:2.4rem;font-weight:650;line-height:1.15;font-variant-numeric:tabular-nums;overflow-wrap:anywhere}
.big .cur{font-size:1rem;font-weight:500;color:var(--muted)}
.basis{margin:0;color:var(--muted);font-size:.85rem}
.basis.stale{color:var(--stale-fg)}
.spark{display:block;width:100%;height:3.5rem;margin:.5rem 0;color:var(--accent)}
.spark polyline{fill:none;stroke:currentColor;stroke-width:2;vector-effect:non-scaling-stroke;stroke-linejoin:round}
.spark polyline+polyline{stroke-dasharray:4 3;opacity:.75}
.spark .empty{fill:var(--muted);font-size:11px}
.stats{display:flex;flex-wrap:wrap;gap:.2rem 1rem;margin:0 0 .5rem;font-size:.85rem}
.stats div{display:flex;gap:.3rem}
.stats dt{color:var(--muted)}
.stats dd{margin:0;font-variant-numeric:tabular-nums}
.wrap{overflow-x:auto}
table{width:100%;border-collapse:collapse;font-size:.9rem;font-variant-numeric:tabular-nums}
th,td{text-align:left;padding:.25rem .4rem .25rem 0;border-top:1px solid var(--line);white-space:nowrap}
thead th{border-top:0;color:var(--muted);font-weight:500;font-size:.8rem}
td.num{text-align:right}
.age{display:inline-block;padding:0 .35rem;border-radius:.3rem}
tr.stale .age{background:var(--stale-bg);color:var(--stale-fg);font-weight:600}
tr.failing th{color:var(--bad-fg)}
.failures p{margin:.4rem 0 0;padding:.3rem .5rem;border-radius:.3rem;background:var(--bad-bg);color:var(--bad-fg);font-size:.85rem;overflow-wrap:anywhere}
.note{color:var(--muted);font-size:.85rem;margin:.3rem 0 0}
form{margin:0 1rem 1rem;padding:1rem;background:var(--card);border:1px solid var(--line);border-radius:.6rem;max-width:32rem}
form h2{margin:0 0 .4rem;font-size:1rem}
input{font:inherit;padding:.4rem .5rem;border:1px solid var(--line);border-radius:.3rem;background:var(--bg);color:var(--fg);width:100%;max-width:20rem}
button{font:inherit;padding:.4rem .8rem;border:1px solid var(--accent);border-radius:.3rem;background:var(--accent);color:#fff;cursor:pointer}
#forget{background:transparent;color:var(--accent)}
:focus-visible{outline:3px solid var(--accent);outline-offset:2px}
.sr{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap}
[hidden]{display:none!important}
"""#
}
