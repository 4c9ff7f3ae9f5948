"""OpenAPI descriptions of the clocks API's bodies and answers. The bodies are built from the
commands' declared inputs (`foundation.commands.Field`), which also read them, so a limit is
written once."""

from __future__ import annotations

from rest_framework import serializers

from clocks import commands
from dune import clock_limits as limits
from web.api_fields import body_of

#: The bodies of the clock commands, built from each command's own declaration
#: (`clocks.commands`): one action path reads a reason, an extension's minutes or a waiver.
ClockActionRequest = body_of(
    "ClockActionRequest", commands.Reason.FIELDS, commands.Extension.FIELDS, commands.Waiver.FIELDS, optional=True
)
RoundActionRequest = body_of("RoundActionRequest", commands.Reason.FIELDS)
CallRequest = body_of("CallRequest", commands.Call.FIELDS)
StopCallRequest = body_of("StopCallRequest", commands.StopCall.FIELDS)


class NextDeadline(serializers.Serializer):
    state = serializers.CharField()
    at = serializers.DateTimeField()
    label = serializers.CharField()
    words = serializers.CharField(help_text='what the countdown counts down to, in words ("to Last 30 minutes")')


class CallTimerAnswer(serializers.Serializer):
    id = serializers.IntegerField()
    action = serializers.CharField()
    faction = serializers.CharField()
    ends_at = serializers.DateTimeField()
    remaining_seconds = serializers.FloatField()
    default = serializers.CharField()


class ClockAnswer(serializers.Serializer):
    table = serializers.IntegerField()
    table_number = serializers.IntegerField()
    round = serializers.IntegerField()
    server_now = serializers.DateTimeField(help_text="The database's time: count down from this.")
    # Plain strings (not enums): one name per choice set keeps the schema's component names stable.
    state = serializers.CharField(help_text=f"One of {', '.join(limits.STATES)}.")
    display_state = serializers.CharField(
        help_text="The state, or last_turn on the game's last allowed turn."
    )
    table_state = serializers.CharField(
        help_text="The table's state (tournament.table_state): seated, playing, ended or filed."
    )
    table_state_label = serializers.CharField(help_text="The table's state in words, e.g. Report filed.")
    state_label = serializers.CharField()
    paused = serializers.BooleanField()
    started = serializers.BooleanField()
    turn = serializers.IntegerField(allow_null=True)
    remaining_seconds = serializers.FloatField(allow_null=True, help_text="Until the next deadline.")
    next = NextDeadline(allow_null=True)
    limit = serializers.CharField(required=False, help_text=f"One of {', '.join(sorted(limits.LIMITS))}.")
    rule = serializers.CharField(required=False)
    players = serializers.IntegerField(required=False)
    max_turns = serializers.IntegerField(required=False)
    started_at = serializers.DateTimeField(allow_null=True, required=False)
    paused_at = serializers.DateTimeField(allow_null=True, required=False)
    deadlines = serializers.DictField(child=serializers.DateTimeField(allow_null=True))
    deadline_labels = serializers.DictField(child=serializers.CharField(allow_null=True), required=False)
    extension_minutes = serializers.IntegerField(required=False)
    waived = serializers.BooleanField(required=False)
    grace_ends = serializers.DateTimeField(allow_null=True, required=False)
    may_start_turn = serializers.BooleanField(required=False)
    version = serializers.IntegerField(required=False)
    calls = CallTimerAnswer(many=True, required=False)


class CallAnswer(ClockAnswer):
    timer = serializers.IntegerField()


class RoundClocksAnswer(serializers.Serializer):
    round = serializers.IntegerField()
    server_now = serializers.DateTimeField()
    clocks = ClockAnswer(many=True)
    tables_changed = serializers.ListField(child=serializers.IntegerField(), required=False)
    tables_skipped = serializers.ListField(child=serializers.IntegerField(), required=False)


class TableEndingOtherwise(serializers.Serializer):
    table = serializers.IntegerField()
    table_number = serializers.IntegerField()
    ends_at = serializers.DateTimeField()
    remaining_seconds = serializers.FloatField()


class RoundTimerAnswer(serializers.Serializer):
    round = serializers.IntegerField()
    server_now = serializers.DateTimeField()
    state = serializers.ChoiceField(choices=["pending", "running", "paused", "time_up", "over"])
    ends_at = serializers.DateTimeField(allow_null=True, help_text="The room's time up (tables ending together).")
    remaining_seconds = serializers.FloatField(allow_null=True)
    counts_down_to = serializers.CharField(help_text="The clock stage the countdown reaches at zero.")
    counts_down_to_label = serializers.CharField()
    no_new_turn_at = serializers.DateTimeField(allow_null=True)
    tables = serializers.IntegerField()
    playing = serializers.IntegerField()
    tables_ending_otherwise = TableEndingOtherwise(many=True)


class Refusal(serializers.Serializer):
    detail = serializers.CharField()
    rule = serializers.CharField(required=False)
    input = serializers.CharField(required=False)
