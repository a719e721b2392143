"use client"

import { useId } from "react"
import { formatCryptoAmount, formatFiatAmount } from "../lib/amount.js"
import { cx, type ClassNames } from "../lib/class-names.js"
import { describeCoin } from "../lib/coins.js"
import { formatLabel, resolveCryptoLabels, type CryptoLabels } from "../lib/labels.js"
import type { CryptoCurrencyOption, CryptoCurrencyUnavailable } from "../types.js"

export type CryptoCoinPickerPart = "root" | "legend" | "total" | "list" | "option" | "input" | "label" | "name" | "network" | "amount" | "amountTerm" | "unavailable" | "empty" | "loading" | "error" | "retry"

export interface CryptoCoinPickerProps {
  /** The coins, from `GET /store/crypto/currencies` (`listCryptoCurrencies` / `useCryptoCurrencies`); each `amount` is what the shopper sends. */
  currencies: readonly CryptoCurrencyOption[]
  /** Coins not offered for this cart (`unavailable` of the same answer): shown disabled, with their minimum. */
  unavailable?: readonly CryptoCurrencyUnavailable[]
  /** Why there is no coin at all (`reason` of the same answer, e.g. `zero_total`). */
  reason?: string | null
  /** The chosen coin id (`psys_cid`), or null. */
  value: string | null
  onChange: (psysCid: string) => void
  /** The coins are being read (`useCryptoCurrencies().loading`): says so instead of an empty list. */
  loading?: boolean
  /**
   * The coins could not be read (`useCryptoCurrencies().error`): the shopper reads `coinsLoadFailed`,
   * never the error's own text (a server action's message is hidden in production, and may be technical).
   */
  error?: Error | null
  /** Read the coins again (`useCryptoCurrencies().reload`): shown as a button beside the error. */
  onRetry?: () => void
  /** The cart total and its currency, shown above the list ("Total: €49.90"). */
  total?: { amount: string; currencyCode: string } | null
  /** Radio group name (default: a generated one). */
  name?: string
  disabled?: boolean
  locale?: string
  labels?: Partial<CryptoLabels>
  classNames?: ClassNames<CryptoCoinPickerPart>
}

/**
 * Coins as a radio group (arrow keys move, space selects: native keyboard behaviour), each with
 * the coin and its network named ("USDT · TRON (TRC-20)") and what the shopper sends in that coin
 * ("You send 1.12133585 LTC": the store's figure, the gateway's commission included when the
 * shopper pays it; the payment panel says the same words beside the invoice's amount). A coin
 * under maintenance is disabled and says so in words; so is a coin whose minimum the cart total
 * does not reach (`unavailable`, with the minimum in the coin and the cart's currency). A zero total
 * offers no coin and says so. The step is never empty: while the coins load it says so, a failed read
 * shows an alert with a retry button, and a store that offers no coin says that.
 */
export function CryptoCoinPicker(props: CryptoCoinPickerProps) {
  const { currencies, unavailable = [], reason = null, value, onChange, total, disabled, loading = false, error = null, onRetry, locale, classNames = {} } = props
  const labels = resolveCryptoLabels(locale, props.labels)
  const generated = useId()
  const name = props.name ?? `mpc-coin-${generated}`
  const empty = currencies.length === 0 && unavailable.length === 0
  const state = loading ? "loading" : error !== null ? "error" : "ready"

  return (
    <fieldset className={cx("mpc-coin-picker", classNames.root)} disabled={disabled} data-selected={value ?? undefined} data-state={state}>
      <legend className={cx("mpc-coin-picker-legend", classNames.legend)}>{labels.chooseCoin}</legend>
      {total ? (
        <p className={cx("mpc-coin-picker-total", classNames.total)}>{formatFiatAmount(total.amount, total.currencyCode, locale)}</p>
      ) : null}
      <ul className={cx("mpc-coin-picker-list", classNames.list)}>
        {currencies.map((coin) => {
          const described = describeCoin(coin.psys_cid, coin.currency)
          const id = `${name}-${coin.psys_cid}`
          const checked = value === coin.psys_cid
          return (
            <li
              key={coin.psys_cid}
              className={cx("mpc-coin-picker-option", classNames.option)}
              data-psys-cid={coin.psys_cid}
              data-checked={checked ? "true" : "false"}
              data-unavailable={coin.maintenance ? "true" : undefined}
            >
              <input
                id={id}
                className={cx("mpc-coin-picker-input", classNames.input)}
                type="radio"
                name={name}
                value={coin.psys_cid}
                checked={checked}
                disabled={coin.maintenance}
                onChange={() => onChange(coin.psys_cid)}
              />
              <label htmlFor={id} className={cx("mpc-coin-picker-label", classNames.label)}>
                <span className={cx("mpc-coin-picker-name", classNames.name)}>{described.code}</span>
                <span className={cx("mpc-coin-picker-network", classNames.network)}>
                  {described.network ?? coin.name ?? described.label}
                </span>
                {coin.amount !== null ? (
                  <span className={cx("mpc-coin-picker-amount", classNames.amount)} data-amount={coin.amount}>
                    <span className={cx("mpc-coin-picker-amount-term", classNames.amountTerm)}>{labels.youSend}</span>{" "}
                    {formatCryptoAmount(coin.amount, { locale, code: described.code })}
                  </span>
                ) : null}
                {coin.maintenance ? <span className="mpc-coin-picker-unavailable"> ({labels.coinUnavailable})</span> : null}
              </label>
            </li>
          )
        })}
        {unavailable.map((coin) => {
          const described = describeCoin(coin.psys_cid, coin.currency)
          return (
            <li
              key={coin.psys_cid}
              className={cx("mpc-coin-picker-option", classNames.option)}
              data-psys-cid={coin.psys_cid}
              data-checked="false"
              data-unavailable="true"
              data-reason={coin.reason}
            >
              <input id={`${name}-${coin.psys_cid}`} className={cx("mpc-coin-picker-input", classNames.input)} type="radio" name={name} value={coin.psys_cid} checked={false} disabled readOnly />
              <label htmlFor={`${name}-${coin.psys_cid}`} className={cx("mpc-coin-picker-label", classNames.label)}>
                <span className={cx("mpc-coin-picker-name", classNames.name)}>{described.code}</span>
                <span className={cx("mpc-coin-picker-network", classNames.network)}>{described.network ?? coin.name ?? described.label}</span>
                <span className={cx("mpc-coin-picker-unavailable", classNames.unavailable)}>
                  {" "}
                  (
                  {formatLabel(labels.coinBelowMinimum, {
                    minimum: formatCryptoAmount(coin.minimum, { locale, code: described.code }),
                    minimumFiat: total ? formatFiatAmount(coin.minimum_fiat, total.currencyCode, locale) : coin.minimum_fiat,
                  })}
                  )
                </span>
              </label>
            </li>
          )
        })}
      </ul>
      {state === "loading" && empty ? (
        <p className={cx("mpc-coin-picker-loading", classNames.loading)} role="status">
          {labels.loadingCoins}
        </p>
      ) : null}
      {state === "error" ? (
        <div className={cx("mpc-coin-picker-error", classNames.error)} role="alert">
          <p>{labels.coinsLoadFailed}</p>
          {onRetry ? (
            <button type="button" className={cx("mpc-coin-picker-retry", classNames.retry)} onClick={onRetry}>
              {labels.retryLoadCoins}
            </button>
          ) : null}
        </div>
      ) : null}
      {reason === "zero_total" ? <p className={cx("mpc-coin-picker-empty", classNames.empty)}>{labels.noCoinsZeroTotal}</p> : null}
      {state === "ready" && empty && reason !== "zero_total" ? (
        <p className={cx("mpc-coin-picker-empty", classNames.empty)}>{labels.noCoinsAvailable}</p>
      ) : null}
    </fieldset>
  )
}
