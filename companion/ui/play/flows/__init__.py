"""The turn's flows as plain data (no Kivy): what each panel asks, what will happen, and the one
engine command the answers make (with the builders of `rules.commands`). Built only from
`rules.options`: the engine decides every rule. One module per concern: choices (and the panels
that ask them), dice, parts (of a bonus action), abilities (what a command fires), ships (a
ship's action), income, prompts (the bonuses and Hub powers waiting). One table per extension:
`ships.FLOWS` (a flow per ship type), `parts.ENTRIES` (an entry per kind of bonus-action
details). A screen sends the command through the session, the one door (docs/ui.md, "One door:
commands").

    flow = ship_flow(state, catalogue, "Ann:L1-construction")
    flow.sectors                      # Choices: buildable ones, the others with the reason
    flow.choose(101); flow.preview()  # ["Ann puts 2 GEMs on Ann:L1-construction", ...]
    outcome = session.send(flow.command())
    outcome.refused / outcome.override("reason") / outcome.question / outcome.answer(8)
"""
