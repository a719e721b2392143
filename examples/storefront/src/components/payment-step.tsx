"use client"

import { CryptoCoinPicker, type CryptoCurrenciesResponse } from "medusa-payment-crypto/storefront"
import { useState } from "react"
import { choosePayment } from "@/lib/data/crypto"
import { isCryptoProvider } from "@/lib/providers"

export interface PaymentOption {
  id: string
  title: string
}

/**
 * The payment step: the region's providers as radios and, for a crypto provider, the coin picker.
 * The only client state is the choice; "Continue to review" posts it to a server action.
 */
export function PaymentStep(props: {
  options: PaymentOption[]
  currencies: CryptoCurrenciesResponse | null
  initialProviderId: string | null
  initialCoin: string | null
}) {
  const defaultCoin = props.currencies?.currencies.find((coin) => coin.default)?.psys_cid ?? null
  const [providerId, setProviderId] = useState<string>(props.initialProviderId ?? props.options[0]?.id ?? "")
  const [coin, setCoin] = useState<string | null>(props.initialCoin ?? defaultCoin)
  const crypto = isCryptoProvider(providerId)

  return (
    <form action={choosePayment}>
      <fieldset>
        <legend>Payment method</legend>
        {props.options.map((option) => (
          <label key={option.id}>
            <input type="radio" name="provider_id" value={option.id} checked={providerId === option.id} onChange={() => setProviderId(option.id)} />{" "}
            {option.title}
          </label>
        ))}
      </fieldset>
      {crypto && props.currencies !== null ? (
        <>
          <CryptoCoinPicker
            currencies={props.currencies.currencies}
            value={coin}
            onChange={setCoin}
            name="crypto-coin"
            total={{ amount: props.currencies.total, currencyCode: props.currencies.currency_code }}
          />
          <input type="hidden" name="psys_cid" value={coin ?? ""} />
        </>
      ) : null}
      <button type="submit" disabled={providerId === ""}>
        Continue to review
      </button>
    </form>
  )
}
