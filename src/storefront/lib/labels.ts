import type { CryptoAbandonedPayment, CryptoPaymentStatus } from "../types.js"
import { formatCryptoAmount, formatFiatAmount } from "./amount.js"
import { describeCoin } from "./coins.js"

/**
 * The words the components show. English is built in, German proves the mechanism; a storefront
 * passes `locale` to pick one and `labels` to override any of them. Labels are plain strings with
 * `{name}` placeholders (not functions) so a Next.js server component can pass them to a client
 * component.
 */
export interface CryptoLabels {
  chooseCoin: string
  coinUnavailable: string
  payButton: string
  redirecting: string
  /** The order page's term for the invoice's amount (commission included). */
  amount: string
  /**
   * The amount the shopper sends, the gateway's commission included: the one term for it in the coin
   * picker, the payment panel and the panel's wallet link and QR code (docs/storefront.md).
   */
  youSend: string
  /** The order page, beside the amount when the gateway adds its commission to it: `{amount}` (the commission, with its coin). The panel lists it as `gatewayCommission`. */
  commissionIncluded: string
  /** Accessible name of the panel's breakdown under the amount (order total, rate, commission). */
  breakdown: string
  /** Breakdown term: the order total in the cart's currency ("84.90 EUR"). */
  orderTotal: string
  /** Breakdown term: the invoice's rate. */
  rate: string
  /** The rate: `{coin}` (the coin's code), `{rate}` (the price of one coin, with its fiat code). */
  rateValue: string
  /** Breakdown term: the gateway's commission added to the amount (with its coin). */
  gatewayCommission: string
  address: string
  network: string
  copy: string
  copied: string
  copyAmount: string
  copyAddress: string
  copyFailed: string
  /** The QR code of a payment URI that carries the amount: `{youSend}`, `{amount}` (with its coin), `{address}`, `{network}`. */
  qrAlt: string
  /** The QR code of the bare address (no payment URI, or one without the amount): `{address}`, `{network}`. */
  qrAltAddress: string
  /** The wallet link, when it carries the amount: `{youSend}`, `{amount}` (with its coin), `{network}`. */
  openInWallet: string
  /** The wallet link, when it carries no amount (the shopper types it): `{network}`. */
  openInWalletNoAmount: string
  /** A coin without a wallet link: `{network}`; the shopper copies the address and the amount. */
  noWalletLink: string
  sendOnly: string
  expiresIn: string
  expired: string
  newInvoice: string
  creatingInvoice: string
  statusNew: string
  statusPending: string
  statusDetected: string
  confirmations: string
  statusUnderpaid: string
  amountDue: string
  statusPaid: string
  statusOverpaid: string
  overpaidNote: string
  statusExpired: string
  statusCanceled: string
  statusError: string
  /** No current invoice: the cart changed after the invoice was made. */
  statusCartChanged: string
  /** The invoice ended short and the rest can be paid. */
  statusRestDue: string
  /** Paying the rest: `{received}` and `{due}` (each with its coin). */
  restSummary: string
  /** The button that asks the store for an invoice of the rest. */
  payRest: string
  /** While that invoice is being made. */
  creatingRestInvoice: string
  /** A hosted top-up: the link to its payment page. */
  openRestPaymentPage: string
  /** Money on an invoice the cart no longer uses: `{amount}` (with its coin), `{order}`, `{total}` (what that invoice was for). */
  abandonedPayment: string
  /** A coin whose minimum the cart total does not reach: `{minimum}` (coin), `{minimumFiat}`. */
  coinBelowMinimum: string
  /** No coin for a zero total. */
  noCoinsZeroTotal: string
  support: string
  /** The return page while money is seen and not yet confirmed (or nothing is known yet). */
  resultPending: string
  /** The return page for an open invoice nothing was sent to yet. */
  resultNotReceived: string
  /** The link back to the gateway's invoice page from the return page. */
  backToInvoice: string
  resultComplete: string
  resultOrder: string
  viewOrder: string
  resultFailed: string
  tryAgain: string
  summaryTitle: string
  coin: string
  /** "Received" as a term, for a custom layout; the kit's order page says `paidOf` instead. */
  received: string
  /** The order page: `{received}` of `{amount}` (the amount to send, commission included; with its coin). */
  paidOf: string
  /** The order page, when the store accepted less than the amount: `{amount}` (the shortfall, with its coin). */
  shortfallAccepted: string
  transactions: string
  transaction: string
  /** The coin picker while the coins are being read. */
  loadingCoins: string
  /** The coin picker when the coins could not be read (the store unreachable or refusing). */
  coinsLoadFailed: string
  /** The coin picker's button that reads the coins again after `coinsLoadFailed`. */
  retryLoadCoins: string
  /** The coin picker when the store offers no coin for the cart (none accepted, none listed). */
  noCoinsAvailable: string
  /** The refund claim page: `{amount}` (in the coin), `{coin}` (its code), `{network}` (its network's name). */
  refundAmount: string
  /** The refund claim page: the order the refund belongs to, `{order}` (its number). */
  refundOrder: string
  /** The refund claim page while waiting: `{date}` (when the link stops working). */
  refundExpires: string
  /** The refund claim page before an address is entered. */
  refundStatusWaiting: string
  /** The address field: `{coin}`, `{network}`. */
  refundAddressLabel: string
  /** Under the address field: `{network}`. */
  refundAddressHint: string
  /** No address entered: `{coin}`. */
  refundAddressEmpty: string
  /** Not an address of the network: `{network}`. */
  refundAddressFormat: string
  /** An address of another network: `{other}` (that network), `{network}` (the refund's). */
  refundAddressNetwork: string
  /** The checkbox the shopper ticks before sending: `{network}`. */
  refundConfirm: string
  /** Sending without ticking `refundConfirm`. */
  refundConfirmRequired: string
  /** The button that claims the refund. */
  refundSubmit: string
  /** While the claim is being sent. */
  refundSubmitting: string
  /** While waiting, the last address was refused: `{reason}` (the store's words). */
  refundRefused: string
  /** The claim did not reach the store or was not answered. */
  refundClaimFailed: string
  /** Claimed and sent, not yet confirmed. */
  refundStatusSending: string
  /** The refund is completed. */
  refundStatusSent: string
  /** The gateway did not confirm the transfer: the shop checks it. */
  refundStatusUnknown: string
  /** The gateway refused the transfer. */
  refundStatusFailed: string
  /** The link expired before an address was entered. */
  refundStatusExpired: string
  /** The shop withdrew the link. */
  refundStatusRevoked: string
  /** Term before the address a claimed refund goes to. */
  refundSentTo: string
  /** The block explorer link of a sent refund. */
  refundViewTransaction: string
}

export const englishLabels: CryptoLabels = {
  chooseCoin: "Choose a coin",
  coinUnavailable: "unavailable",
  payButton: "Pay with crypto",
  redirecting: "Opening the payment page…",
  amount: "Amount",
  youSend: "You send",
  commissionIncluded: "Includes the gateway's commission of {amount}.",
  breakdown: "How the amount is made up",
  orderTotal: "Order total",
  rate: "Rate",
  rateValue: "1 {coin} = {rate}",
  gatewayCommission: "Gateway commission",
  address: "Address",
  network: "Network",
  copy: "Copy",
  copied: "Copied",
  copyAmount: "Copy amount",
  copyAddress: "Copy address",
  copyFailed: "Could not copy; select the text and copy it by hand",
  qrAlt: "QR code: {youSend} {amount} to {address} on {network}",
  qrAltAddress: "QR code of the address {address} on {network}",
  openInWallet: "Open in wallet: {youSend} {amount} on {network}",
  openInWalletNoAmount: "Open in wallet: send on {network}",
  noWalletLink: "Send on {network}: copy the address and the amount into your wallet.",
  sendOnly: "Send only {coin} to this address.",
  expiresIn: "Expires in {time}",
  expired: "Expired",
  newInvoice: "Get a new invoice",
  creatingInvoice: "Creating a new invoice…",
  statusNew: "Waiting for your payment",
  statusPending: "Checking the payment…",
  statusDetected: "Payment detected, waiting for confirmations",
  confirmations: "{current} of {required} confirmations",
  statusUnderpaid: "Part of the payment received",
  amountDue: "Still to pay: {amount}",
  statusPaid: "Payment received",
  statusOverpaid: "Payment received (more than the amount due)",
  overpaidNote: "You sent {amount} more than the amount due. The store will contact you about it.",
  statusExpired: "This invoice has expired",
  statusCanceled: "This invoice was canceled",
  statusError: "The payment could not be processed",
  statusCartChanged: "Your cart changed, so this invoice no longer applies. Please pay the new total.",
  statusRestDue: "Your payment was short of the amount due. Pay the rest to complete your order.",
  restSummary: "Received {received}. Still due: {due}.",
  payRest: "Pay the rest",
  creatingRestInvoice: "Preparing the payment of the rest…",
  openRestPaymentPage: "Pay the rest on the payment page",
  abandonedPayment:
    "You sent {amount} to an earlier invoice ({order}, for {total}) that no longer matches your cart. It does not pay for your order: the store will send it back to you in the same coin. Please pay the new total.",
  coinBelowMinimum: "not available for this total: the minimum is {minimum} ({minimumFiat})",
  noCoinsZeroTotal: "Nothing to pay in crypto: the total is zero.",
  support: "Need help? Contact {contact}",
  resultPending: "Your payment is being confirmed. This page updates by itself.",
  resultNotReceived: "We have not received your payment yet. If you have sent it, this page updates by itself; otherwise go back and pay the invoice.",
  backToInvoice: "Go back to the invoice",
  resultComplete: "Payment received. Your order is being placed…",
  resultOrder: "Thank you! Your order has been placed.",
  viewOrder: "View your order",
  resultFailed: "The payment did not go through.",
  tryAgain: "Back to checkout",
  summaryTitle: "Crypto payment",
  coin: "Coin",
  received: "Received",
  paidOf: "Paid {received} of {amount}",
  shortfallAccepted: "{amount} less than the amount due; the store accepted the payment.",
  transactions: "Transactions",
  transaction: "Transaction {n}",
  loadingCoins: "Loading the coins…",
  coinsLoadFailed: "The coins could not be loaded. Please try again in a moment.",
  retryLoadCoins: "Try again",
  noCoinsAvailable: "No coin is available for this cart.",
  refundAmount: "Your refund: {amount} {coin} ({network})",
  refundOrder: "Order #{order}",
  refundExpires: "This link works until {date}.",
  refundStatusWaiting: "Enter your address to receive the refund.",
  refundAddressLabel: "Your {coin} address on {network}",
  refundAddressHint: "Copy it from your wallet's receive screen. Only an address on {network} can receive this refund.",
  refundAddressEmpty: "Please enter your {coin} address.",
  refundAddressFormat: "This is not a valid address on {network}. Check it for typos, or copy it again from your wallet.",
  refundAddressNetwork: "This is an address on {other}, not on {network}. Money sent to another network is lost: please enter your address on {network}.",
  refundConfirm: "I have checked that this address is mine and on {network}",
  refundConfirmRequired: "Please confirm that you checked the address.",
  refundSubmit: "Send my refund to this address",
  refundSubmitting: "Sending your refund…",
  refundRefused: "The address was not accepted ({reason}). Please check it or enter another one.",
  refundClaimFailed: "Your refund could not be requested. Please try again in a moment; if it keeps failing, contact the shop.",
  refundStatusSending: "Your refund is on its way. It can take a while until the network confirms it.",
  refundStatusSent: "Your refund has been sent.",
  refundStatusUnknown: "Your address was received, but the transfer is not confirmed yet. The shop checks it and never sends twice; it will contact you if needed.",
  refundStatusFailed: "The transfer was refused. The shop will contact you.",
  refundStatusExpired: "This refund link has expired and no longer works. Please contact the shop for a new one.",
  refundStatusRevoked: "This refund link no longer works: the shop withdrew it. Please contact the shop.",
  refundSentTo: "Refund address",
  refundViewTransaction: "View the transaction",
}

export const germanLabels: CryptoLabels = {
  chooseCoin: "Kryptowährung wählen",
  coinUnavailable: "nicht verfügbar",
  payButton: "Mit Krypto bezahlen",
  redirecting: "Zahlungsseite wird geöffnet…",
  amount: "Betrag",
  youSend: "Sie senden",
  commissionIncluded: "Enthält die Gebühr des Zahlungsanbieters von {amount}.",
  breakdown: "Zusammensetzung des Betrags",
  orderTotal: "Bestellsumme",
  rate: "Kurs",
  rateValue: "1 {coin} = {rate}",
  gatewayCommission: "Gebühr des Zahlungsanbieters",
  address: "Adresse",
  network: "Netzwerk",
  copy: "Kopieren",
  copied: "Kopiert",
  copyAmount: "Betrag kopieren",
  copyAddress: "Adresse kopieren",
  copyFailed: "Kopieren fehlgeschlagen; bitte den Text markieren und von Hand kopieren",
  qrAlt: "QR-Code: {youSend} {amount} an {address} im Netzwerk {network}",
  qrAltAddress: "QR-Code der Adresse {address} im Netzwerk {network}",
  openInWallet: "In der Wallet öffnen: {youSend} {amount} im Netzwerk {network}",
  openInWalletNoAmount: "In der Wallet öffnen: senden im Netzwerk {network}",
  noWalletLink: "Senden im Netzwerk {network}: Kopieren Sie Adresse und Betrag in Ihre Wallet.",
  sendOnly: "Senden Sie nur {coin} an diese Adresse.",
  expiresIn: "Läuft ab in {time}",
  expired: "Abgelaufen",
  newInvoice: "Neue Rechnung erstellen",
  creatingInvoice: "Neue Rechnung wird erstellt…",
  statusNew: "Warten auf Ihre Zahlung",
  statusPending: "Zahlung wird geprüft…",
  statusDetected: "Zahlung erkannt, warten auf Bestätigungen",
  confirmations: "{current} von {required} Bestätigungen",
  statusUnderpaid: "Teilzahlung erhalten",
  amountDue: "Noch zu zahlen: {amount}",
  statusPaid: "Zahlung erhalten",
  statusOverpaid: "Zahlung erhalten (mehr als der fällige Betrag)",
  overpaidNote: "Sie haben {amount} mehr als fällig gesendet. Der Shop meldet sich dazu bei Ihnen.",
  statusExpired: "Diese Rechnung ist abgelaufen",
  statusCanceled: "Diese Rechnung wurde storniert",
  statusError: "Die Zahlung konnte nicht verarbeitet werden",
  statusCartChanged: "Ihr Warenkorb hat sich geändert, diese Rechnung gilt nicht mehr. Bitte zahlen Sie den neuen Betrag.",
  statusRestDue: "Ihre Zahlung war geringer als der fällige Betrag. Zahlen Sie den Rest, um die Bestellung abzuschließen.",
  restSummary: "Erhalten: {received}. Noch offen: {due}.",
  payRest: "Rest bezahlen",
  creatingRestInvoice: "Die Zahlung des Rests wird vorbereitet…",
  openRestPaymentPage: "Rest auf der Zahlungsseite bezahlen",
  abandonedPayment:
    "Sie haben {amount} an eine frühere Rechnung ({order}, über {total}) gesendet, die nicht mehr zu Ihrem Warenkorb passt. Sie bezahlt Ihre Bestellung nicht: Der Shop sendet sie Ihnen in derselben Kryptowährung zurück. Bitte zahlen Sie den neuen Betrag.",
  coinBelowMinimum: "für diesen Betrag nicht verfügbar: Mindestbetrag {minimum} ({minimumFiat})",
  noCoinsZeroTotal: "Nichts mit Krypto zu zahlen: Der Betrag ist null.",
  support: "Hilfe? Kontakt: {contact}",
  resultPending: "Ihre Zahlung wird bestätigt. Diese Seite aktualisiert sich selbst.",
  resultNotReceived:
    "Wir haben Ihre Zahlung noch nicht erhalten. Wenn Sie sie gesendet haben, aktualisiert sich diese Seite selbst; sonst gehen Sie zurück und bezahlen Sie die Rechnung.",
  backToInvoice: "Zurück zur Rechnung",
  resultComplete: "Zahlung erhalten. Ihre Bestellung wird angelegt…",
  resultOrder: "Vielen Dank! Ihre Bestellung wurde aufgegeben.",
  viewOrder: "Bestellung ansehen",
  resultFailed: "Die Zahlung ist nicht durchgegangen.",
  tryAgain: "Zurück zur Kasse",
  summaryTitle: "Krypto-Zahlung",
  coin: "Kryptowährung",
  received: "Erhalten",
  paidOf: "Bezahlt: {received} von {amount}",
  shortfallAccepted: "{amount} weniger als fällig; der Shop hat die Zahlung angenommen.",
  transactions: "Transaktionen",
  transaction: "Transaktion {n}",
  loadingCoins: "Die Kryptowährungen werden geladen…",
  coinsLoadFailed: "Die Kryptowährungen konnten nicht geladen werden. Bitte versuchen Sie es gleich noch einmal.",
  retryLoadCoins: "Erneut versuchen",
  noCoinsAvailable: "Für diesen Warenkorb ist keine Kryptowährung verfügbar.",
  refundAmount: "Ihre Erstattung: {amount} {coin} ({network})",
  refundOrder: "Bestellung #{order}",
  refundExpires: "Dieser Link gilt bis {date}.",
  refundStatusWaiting: "Geben Sie Ihre Adresse ein, um die Erstattung zu erhalten.",
  refundAddressLabel: "Ihre {coin}-Adresse im Netzwerk {network}",
  refundAddressHint: "Kopieren Sie sie aus der Empfangsansicht Ihrer Wallet. Nur eine Adresse im Netzwerk {network} kann diese Erstattung empfangen.",
  refundAddressEmpty: "Bitte geben Sie Ihre {coin}-Adresse ein.",
  refundAddressFormat: "Das ist keine gültige Adresse im Netzwerk {network}. Prüfen Sie sie auf Tippfehler oder kopieren Sie sie erneut aus Ihrer Wallet.",
  refundAddressNetwork: "Das ist eine Adresse im Netzwerk {other}, nicht {network}. Geld in einem anderen Netzwerk geht verloren: Bitte geben Sie Ihre Adresse im Netzwerk {network} ein.",
  refundConfirm: "Ich habe geprüft, dass diese Adresse mir gehört und im Netzwerk {network} liegt",
  refundConfirmRequired: "Bitte bestätigen Sie, dass Sie die Adresse geprüft haben.",
  refundSubmit: "Erstattung an diese Adresse senden",
  refundSubmitting: "Ihre Erstattung wird gesendet…",
  refundRefused: "Die Adresse wurde nicht angenommen ({reason}). Bitte prüfen Sie sie oder geben Sie eine andere ein.",
  refundClaimFailed: "Ihre Erstattung konnte nicht angefordert werden. Bitte versuchen Sie es gleich noch einmal; wenn es weiter nicht klappt, wenden Sie sich an den Shop.",
  refundStatusSending: "Ihre Erstattung ist unterwegs. Bis das Netzwerk sie bestätigt, kann es eine Weile dauern.",
  refundStatusSent: "Ihre Erstattung wurde gesendet.",
  refundStatusUnknown: "Ihre Adresse ist eingegangen, die Überweisung ist aber noch nicht bestätigt. Der Shop prüft das und sendet nie doppelt; er meldet sich bei Bedarf bei Ihnen.",
  refundStatusFailed: "Die Überweisung wurde abgelehnt. Der Shop meldet sich bei Ihnen.",
  refundStatusExpired: "Dieser Erstattungslink ist abgelaufen und funktioniert nicht mehr. Bitte wenden Sie sich an den Shop, um einen neuen zu erhalten.",
  refundStatusRevoked: "Dieser Erstattungslink funktioniert nicht mehr: Der Shop hat ihn zurückgezogen. Bitte wenden Sie sich an den Shop.",
  refundSentTo: "Erstattungsadresse",
  refundViewTransaction: "Transaktion ansehen",
}

/** Built-in label sets by language subtag. */
export const cryptoLabelsByLanguage: Readonly<Record<string, CryptoLabels>> = { en: englishLabels, de: germanLabels }

/** The labels for a locale ("de-AT" → German; unknown → English), with overrides applied. */
export function resolveCryptoLabels(locale?: string, overrides?: Partial<CryptoLabels>): CryptoLabels {
  const language = (locale ?? "en").split(/[-_]/)[0]?.toLowerCase() ?? "en"
  return { ...(cryptoLabelsByLanguage[language] ?? englishLabels), ...(overrides ?? {}) }
}

/** Fills `{name}` placeholders: formatLabel("{current} of {required}", { current: 1, required: 3 }). */
export function formatLabel(template: string, values: Readonly<Record<string, string | number>>): string {
  return template.replace(/\{(\w+)\}/g, (match, name: string) => (name in values ? String(values[name]) : match))
}

/** The words for a status of the kit's model ("Payment detected, waiting for confirmations"). */
export function cryptoStatusText(status: CryptoPaymentStatus, labels: CryptoLabels): string {
  switch (status) {
    case "new":
      return labels.statusNew
    case "pending":
      return labels.statusPending
    case "detected":
      return labels.statusDetected
    case "underpaid":
      return labels.statusUnderpaid
    case "paid":
      return labels.statusPaid
    case "overpaid":
      return labels.statusOverpaid
    case "expired":
      return labels.statusExpired
    case "canceled":
      return labels.statusCanceled
    case "error":
      return labels.statusError
    case "cart_changed":
      return labels.statusCartChanged
    case "rest_due":
      return labels.statusRestDue
  }
}

/**
 * One sentence for money on an invoice the cart no longer uses: what was sent, to which earlier
 * invoice and for what total, that it does not pay the order, that the store sends it back, and
 * that the new total is to be paid (`abandonedPayment`).
 */
export function abandonedPaymentText(payment: CryptoAbandonedPayment, labels: CryptoLabels, locale?: string): string {
  const code = payment.psys_cid !== null ? describeCoin(payment.psys_cid, payment.currency).code : payment.currency ?? undefined
  return formatLabel(labels.abandonedPayment, {
    amount: formatCryptoAmount(payment.received_amount, { locale, code }),
    order: payment.order_number,
    total: formatFiatAmount(payment.source_amount, payment.source_currency, locale),
  })
}
