"""Practice: scenarios graded by the coach, quick drills, and the Glicko-2 rating of a learner.

Builds on ``coach`` (scenarios are spots from games of a frozen practice table, graded by
``coach.advise``) and ``perudo_math``; never Streamlit. ``python -m practice scenario``
prints a scenario as JSON.
"""

from practice.drills import DRILL_KINDS, generate_drill, grade_drill
from practice.levels import LEVELS, check_level
from practice.rating import Rating, next_level, rate_answer
from practice.scenarios import THEMES, Grade, Scenario, generate, grade

__all__ = [
    "DRILL_KINDS",
    "LEVELS",
    "THEMES",
    "Grade",
    "Rating",
    "Scenario",
    "check_level",
    "generate",
    "generate_drill",
    "grade",
    "grade_drill",
    "next_level",
    "rate_answer",
]
