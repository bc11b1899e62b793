"""The game's definition: what a game is, before anything reads a forum.

The game file's model and loader, the rulesets and their presets, the error types every layer
raises, and how a player's name is compared. It sits at the bottom: `scraper`, `parsers`,
`moderation`, `engine`, `reports` and the application `daoyan` import it; it imports none of them.
"""
