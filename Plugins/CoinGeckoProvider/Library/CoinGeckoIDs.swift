/// CoinGecko's ids for the largest assets by market capitalisation (and the
/// stablecoins pricehost knows): what `BTC` is called in CoinGecko's URLs.
/// `providers.coingecko.ids` adds to it and overrides it.
public enum CoinGeckoIDs {
    /// Asset code to CoinGecko id.
    public static let builtIn: [String: String] = [
        "BTC": "bitcoin", "ETH": "ethereum", "USDT": "tether", "XRP": "ripple", "BNB": "binancecoin",
        "SOL": "solana", "USDC": "usd-coin", "DOGE": "dogecoin", "TRX": "tron", "ADA": "cardano",
        "STETH": "staked-ether", "WBTC": "wrapped-bitcoin", "LINK": "chainlink", "AVAX": "avalanche-2", "XLM": "stellar",
        "SUI": "sui", "HBAR": "hedera-hashgraph", "BCH": "bitcoin-cash", "TON": "the-open-network", "DOT": "polkadot",
        "LTC": "litecoin", "SHIB": "shiba-inu", "LEO": "leo-token", "UNI": "uniswap", "DAI": "dai",
        "XMR": "monero", "PEPE": "pepe", "NEAR": "near", "APT": "aptos", "ICP": "internet-computer",
        "ETC": "ethereum-classic", "POL": "polygon-ecosystem-token", "MATIC": "matic-network", "AAVE": "aave", "TAO": "bittensor",
        "CRO": "crypto-com-chain", "ATOM": "cosmos", "FIL": "filecoin", "ARB": "arbitrum", "OP": "optimism",
        "WETH": "weth", "KAS": "kaspa", "ALGO": "algorand", "VET": "vechain", "MKR": "maker",
        "RENDER": "render-token", "FET": "fetch-ai", "HYPE": "hyperliquid", "ENA": "ethena", "USDE": "ethena-usde",
        "INJ": "injective-protocol", "TIA": "celestia", "SEI": "sei-network", "STX": "blockstack", "IMX": "immutable-x",
        "GRT": "the-graph", "XTZ": "tezos", "EOS": "eos", "BONK": "bonk", "WLD": "worldcoin-wld",
        "PYUSD": "paypal-usd", "FDUSD": "first-digital-usd", "EURC": "euro-coin", "PAXG": "pax-gold", "XAUT": "tether-gold",
    ]

    /// True when `id` can be a CoinGecko id, and so go into a URL as it is:
    /// 1 to 100 lower-case letters, digits, `-`, `_` or `.`.
    public static func isValid(_ id: String) -> Bool {
        (1...100).contains(id.utf8.count) && id.utf8.allSatisfy { byte in
            (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
                || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "_") || byte == UInt8(ascii: ".")
        }
    }
}
