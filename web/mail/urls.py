from django.urls import path

from web.mail import outbox_page, views

urlpatterns = [
    path("mail/stop/<str:token>/", views.stop, name="mail-stop"),
    path("tournaments/<int:pk>/outbox/", outbox_page.outbox_page, name="mail-outbox"),
    path("outbox/", outbox_page.installation_outbox_page, name="mail-installation-outbox"),
]
