"""The public sign-up form: built from the fields the organizer asks; the service checks
everything again (the form only shapes the page)."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from players.models import Sex
from signup.models import MAX_NAME, MAX_NOTE, MAX_RATING_CLAIM, SignUpSettings

#: The honeypot: a field people never see (hidden by the stylesheet, skipped by the
#: keyboard); a bot that fills every input gives itself away.
HONEYPOT = "website"


class SignUpForm(forms.Form):
    name = forms.CharField(label=_("Your name"), max_length=MAX_NAME, strip=False,
                           widget=forms.TextInput(attrs={"autocomplete": "name"}))

    def __init__(self, *args: Any, settings: SignUpSettings, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if settings.ask_birth_year:
            self.fields["birth_year"] = forms.CharField(
                label=_("Birth year"), max_length=4,
                widget=forms.TextInput(attrs={"inputmode": "numeric", "pattern": "[0-9]{4}"}))
        if settings.ask_sex:
            self.fields["sex"] = forms.ChoiceField(
                label=_("Sex"), choices=[("", "—"), *Sex.choices])
        if settings.ask_federation:
            self.fields["federation"] = forms.CharField(
                label=_("Federation or town (three letters)"), max_length=3,
                widget=forms.TextInput(attrs={"autocapitalize": "characters"}))
        if settings.ask_email:
            self.fields["email"] = forms.CharField(
                label=_("E-mail"), max_length=254,
                widget=forms.EmailInput(attrs={"autocomplete": "email"}))
        if settings.ask_rating_claim:
            self.fields["rating_claim"] = forms.CharField(
                label=_("Your rating (if you have one)"), max_length=4, required=False,
                widget=forms.TextInput(attrs={"inputmode": "numeric"}))
        if settings.ask_note:
            self.fields["note"] = forms.CharField(
                label=_("A note for the organizer"), max_length=MAX_NOTE, required=False,
                widget=forms.Textarea(attrs={"rows": 3}))
        self.fields[HONEYPOT] = forms.CharField(
            label=_("Leave this empty"), required=False, max_length=200,
            widget=forms.TextInput(attrs={"tabindex": "-1", "autocomplete": "off"}))
        # Past the limits the service names the field; the browser is only told the
        # lengths: the service gets the raw text.
        for field in self.fields.values():
            if isinstance(field, forms.CharField):
                field.max_length = None
                field.validators = []
        self.fields["name"].widget.attrs["maxlength"] = str(MAX_NAME)
        if "rating_claim" in self.fields:
            self.fields["rating_claim"].help_text = _("0 to %(most)d") % {
                "most": MAX_RATING_CLAIM}
