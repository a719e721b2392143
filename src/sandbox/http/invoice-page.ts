import { escapeUTF8 } from "entities"

import { invoiceState } from "../control/state-views"
import { invalidAttribute, notFound } from "../core/errors"
import { figures } from "../core/invoice-machine"
import { Dec, roundDown, roundUp } from "../core/money"
import type { SandboxCore } from "../core/sandbox-core"
import type { Invoice } from "../core/types"
import type { Reply, RequestContext, Route } from "./router"

const esc = (value: string): string => escapeUTF8(value)

/** JSON safe to embed in a <script> element. */
const scriptJson = (value: unknown): string => JSON.stringify(value).replace(/</g, "\\u003c")

function publicInvoice(ctx: RequestContext): Invoice {
  const invoice = ctx.core.invoice(ctx.path.txn_id)
  if (invoice === undefined) {
    throw notFound()
  }
  return invoice
}

/**
 * The shopper's buttons. They need no api_key: the page is public, as the gateway's is, and the
 * sandbox is a test tool (see README).
 */
function simulate(core: SandboxCore, invoice: Invoice, action: string): void {
  const coin = core.requireCoin(invoice.psys_cid, "psys_cid")
  const due = figures(invoice, coin).pendingAmount
  const unit = new Dec(1).div(new Dec(10).pow(coin.precision))
  switch (action) {
    case "pay":
      core.pay(invoice, { amount: due.gt(0) ? due : null, confirmations: 0, error: false })
      return
    case "underpay": {
      const half = roundDown(due.div(2), coin.precision)
      core.pay(invoice, { amount: half.gt(0) ? half : unit, confirmations: 0, error: false })
      return
    }
    case "overpay":
      core.pay(invoice, { amount: roundUp(due.gt(0) ? due.times("1.1") : new Dec(invoice.invoice_total_sum).div(10), coin.precision), confirmations: 0, error: false })
      return
    case "confirm":
      core.confirm(invoice, null)
      return
    case "error":
      core.pay(invoice, { amount: null, confirmations: null, error: true })
      return
    default:
      throw invalidAttribute("action", "\"action\" must be one of: pay, underpay, overpay, confirm, error.")
  }
}

function renderPage(core: SandboxCore, invoice: Invoice, qrCode: string): string {
  const shop = core.shopById(invoice.shop_id)
  const coin = core.requireCoin(invoice.psys_cid, "psys_cid")
  const allowed = invoice.allowed_psys_cids.length > 0 ? invoice.allowed_psys_cids : (shop?.enabled_psys_cids ?? [])
  const options = allowed
    .map((id) => `<option value="${esc(id)}"${id === invoice.psys_cid ? " selected" : ""}>${esc(id)}</option>`)
    .join("")
  const boot = {
    txn_id: invoice.txn_id,
    serverNow: core.clock.now(),
    successUrl: invoice.success_invoice_url,
    failUrl: invoice.fail_invoice_url,
    state: invoiceState(core, invoice),
  }
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Invoice ${esc(invoice.txn_id)} · gateway sandbox</title>
<style>
body{font:16px/1.5 system-ui,sans-serif;max-width:42rem;margin:2rem auto;padding:0 1rem;color:#1b1f24}
.card{border:1px solid #d0d7de;border-radius:12px;padding:1.5rem}
.badge{display:inline-block;padding:.1rem .6rem;border-radius:99px;background:#eef1f4;font-weight:600}
.amount{font-size:1.6rem;font-weight:700}
code{word-break:break-all;background:#f6f8fa;padding:.1rem .3rem;border-radius:4px}
button,select,a.button{font:inherit;padding:.4rem .8rem;margin:.2rem .2rem .2rem 0;border-radius:6px;border:1px solid #8c959f;background:#fff;cursor:pointer;color:inherit;text-decoration:none;display:inline-block}
.sandbox{margin-top:1.5rem;padding-top:1rem;border-top:1px dashed #8c959f}
.muted{color:#57606a;font-size:.9rem}
</style>
</head>
<body>
<div class="card">
  <p class="muted">${esc(shop?.name ?? "")} · order ${esc(invoice.order_number)} · ${esc(invoice.order_name)}</p>
  ${invoice.description === null ? "" : `<p>${esc(invoice.description)}</p>`}
  <p>Status: <span class="badge" id="status">${esc(invoice.status)}</span></p>
  <p>Send <span class="amount" id="due">${esc(invoice.invoice_total_sum)}</span> <strong>${esc(coin.currency)}</strong>
     <span class="muted">(${esc(coin.name)}, ${esc(invoice.psys_cid)}; ≈ ${esc(invoice.source_amount)} ${esc(invoice.source_currency)})</span></p>
  <p>Still due: <strong id="pending"></strong> · received: <strong id="received"></strong> · confirmations: <strong id="confirmations"></strong></p>
  <p>To: <code id="address">${esc(invoice.wallet_hash)}</code></p>
  <img alt="QR code of the payment address" width="200" height="200" src="data:image/png;base64,${esc(qrCode)}">
  <p>Expires in <strong id="countdown"></strong></p>
  <p id="chain" class="muted"></p>
  <form id="switch"><label>Pay with another coin: <select name="psys_cid">${options}</select></label> <button type="submit">Switch</button></form>
  <p><a class="button" id="to-site" hidden>To the site</a></p>
  <div class="sandbox">
    <p class="muted">Sandbox: simulate the shopper and the network.</p>
    <button data-action="pay">Pay in full</button>
    <button data-action="underpay">Underpay (half)</button>
    <button data-action="overpay">Overpay (+10%)</button>
    <button data-action="confirm">Confirmations arrive</button>
    <button data-action="error">Network error</button>
    <p id="message" class="muted" role="status"></p>
  </div>
</div>
<script id="boot" type="application/json">${scriptJson(boot)}</script>
<script>
(function () {
  var boot = JSON.parse(document.getElementById("boot").textContent);
  var skew = boot.serverNow - Date.now();
  var state = boot.state;
  var base = location.pathname.replace(/\\/$/, "");
  var terminal = ["completed", "mismatch", "expired", "cancelled", "cancelled duplicate", "error"];
  function text(id, value) { document.getElementById(id).textContent = value; }
  function render() {
    text("status", state.status);
    text("pending", state.pending_amount + " " + state.currency);
    text("received", state.received + " " + state.currency);
    text("confirmations", state.confirmations + " / " + state.expected_confirmations);
    var done = terminal.indexOf(state.status) >= 0;
    var paid = state.status === "completed" || state.status === "mismatch";
    var target = paid ? boot.successUrl : (done ? boot.failUrl : null);
    var link = document.getElementById("to-site");
    if (target) { link.href = target; link.hidden = false; } else { link.hidden = true; }
    document.getElementById("switch").hidden = state.status !== "new";
    var chain = state.switch_id ? "Switch chain " + state.switch_id + (state.parent_id ? " (this invoice switched from it)" : " (first invoice)") : "";
    text("chain", chain);
    Array.prototype.forEach.call(document.querySelectorAll("button[data-action]"), function (b) { b.disabled = done; });
  }
  function tick() {
    var left = Math.max(0, Math.floor((state.expire_utc * 1000 - (Date.now() + skew)) / 1000));
    var h = Math.floor(left / 3600), m = Math.floor((left % 3600) / 60), s = left % 60;
    text("countdown", h + "h " + m + "m " + s + "s");
  }
  function post(path, body) {
    return fetch(base + path, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) })
      .then(function (r) { return r.json(); })
      .then(function (res) {
        if (res.status !== "success") { text("message", res.data.message); return null; }
        text("message", ""); return res.data;
      });
  }
  function poll() {
    fetch(base + "/status").then(function (r) { return r.json(); }).then(function (res) {
      if (res.status === "success") { state = res.data; render(); }
    }).catch(function () {});
  }
  Array.prototype.forEach.call(document.querySelectorAll("button[data-action]"), function (b) {
    b.addEventListener("click", function () {
      post("/simulate", { action: b.getAttribute("data-action") }).then(function (s) { if (s) { state = s; render(); } });
    });
  });
  document.getElementById("switch").addEventListener("submit", function (e) {
    e.preventDefault();
    var cid = e.target.elements.psys_cid.value;
    post("/switch", { psys_cid: cid }).then(function (s) { if (s) { location.href = s.invoice_url; } });
  });
  render(); tick();
  setInterval(tick, 1000);
  setInterval(poll, 2000);
})();
</script>
</body>
</html>`
}

function iconSvg(label: string): string {
  let hash = 0
  for (const ch of label) {
    hash = (hash * 31 + ch.charCodeAt(0)) % 360
  }
  return `<svg xmlns="http://www.w3.org/2000/svg" width="64" height="64" viewBox="0 0 64 64"><circle cx="32" cy="32" r="30" fill="hsl(${hash},60%,45%)"/><text x="32" y="38" font-family="sans-serif" font-size="14" font-weight="700" fill="#fff" text-anchor="middle">${esc(label.slice(0, 4))}</text></svg>`
}

const success = (data: unknown): Reply => ({ status: 200, json: { status: "success", data } })

/** The hosted invoice page at `invoice_url` and the small endpoints its script calls. */
export const pageRoutes: Route[] = [
  {
    method: "GET",
    pattern: "/invoice/:txn_id",
    handler: async (ctx) => {
      ctx.core.tick()
      const invoice = publicInvoice(ctx)
      return { status: 200, html: renderPage(ctx.core, invoice, await ctx.core.qrCode(invoice)) }
    },
  },
  {
    method: "GET",
    pattern: "/invoice/:txn_id/status",
    handler: (ctx) => {
      ctx.core.tick()
      return success(invoiceState(ctx.core, publicInvoice(ctx)))
    },
  },
  {
    method: "POST",
    pattern: "/invoice/:txn_id/simulate",
    handler: (ctx) => {
      const invoice = publicInvoice(ctx)
      simulate(ctx.core, invoice, ctx.params.required("action", 422, 32))
      return success(invoiceState(ctx.core, invoice))
    },
  },
  {
    method: "POST",
    pattern: "/invoice/:txn_id/switch",
    handler: async (ctx) => {
      const invoice = publicInvoice(ctx)
      const child = await ctx.core.switchInvoice(invoice, ctx.params.required("psys_cid", 422, 32))
      return success(invoiceState(ctx.core, child))
    },
  },
  {
    method: "GET",
    pattern: "/icons/:file",
    handler: (ctx) => {
      const id = ctx.path.file.replace(/\.svg$/, "")
      if (ctx.core.coin(id) === undefined) {
        throw notFound()
      }
      return { status: 200, body: Buffer.from(iconSvg(id)), contentType: "image/svg+xml" }
    },
  },
]
