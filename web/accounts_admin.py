"""The admin's account pages: a new account's name is refused when it mixes scripts with
lookalike letters or looks like an existing account's (`foundation.accounts.username_problem`)."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import admin
from django.contrib.auth import get_user_model
from django.contrib.auth.admin import UserAdmin
from django.contrib.auth.forms import AdminUserCreationForm

from foundation.accounts import username_problem


class NewAccountForm(AdminUserCreationForm):
    def clean_username(self) -> Any:
        name = super().clean_username()  # None when Django found a name of another case already
        problem = username_problem(name) if name else None
        if problem:
            raise forms.ValidationError(problem, code="lookalike")
        return name


class AccountAdmin(UserAdmin):
    add_form = NewAccountForm


User = get_user_model()
if admin.site.is_registered(User):
    admin.site.unregister(User)
admin.site.register(User, AccountAdmin)
