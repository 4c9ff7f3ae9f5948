"""Every app's admin registrations (autodiscovered through this module)."""

import web.accounts_admin  # noqa: F401
import web.clocks.admin  # noqa: F401
import web.gameplay.admin  # noqa: F401
import web.ratings.admin  # noqa: F401
import web.scoring.admin  # noqa: F401
import web.tournament.admin  # noqa: F401
