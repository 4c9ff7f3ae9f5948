"""The rating computation (Plackett-Luce over filed games) and its chart's coordinates."""
