"""Made-up players for the demo tournament and the whole-tournament browser tests."""

from __future__ import annotations

FIRST_NAMES = (
    "Alia", "Bijaz", "Chani", "Duncan", "Esmar", "Feyd", "Gurney", "Hwi", "Irulan", "Jamis", "Korba", "Liet",
    "Mapes", "Nefud", "Otheym", "Piter", "Rabban", "Stilgar", "Thufir", "Usul", "Wensicia", "Yueh", "Zia", "Leto",
)
LAST_NAMES = ("Vance", "Okafor", "Lindqvist", "Moreau", "Tanaka", "Alvarez", "Novak", "Osei", "Brennan", "Sato")
CLUBS = ("Arrakis Gamers", "Caladan Club", "Giedi Prime Society", "")


def roster(count: int) -> list[tuple[str, str, str]]:
    """`count` distinct players as (name, email, club); the same list every time.

    Raises ValueError past the number of distinct names the lists make.
    """
    if not 0 <= count <= len(FIRST_NAMES) * len(LAST_NAMES):
        raise ValueError(f"the roster has {len(FIRST_NAMES) * len(LAST_NAMES)} names, not {count!r}")
    players = []
    for i in range(count):
        first = FIRST_NAMES[i % len(FIRST_NAMES)]
        last = LAST_NAMES[(i * 3 + i // len(FIRST_NAMES)) % len(LAST_NAMES)]
        players.append((f"{first} {last}", f"{first.lower()}.{i}@example.org", CLUBS[i % len(CLUBS)]))
    return players
