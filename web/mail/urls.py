from django.urls import path

from web.mail import views

urlpatterns = [
    path("mail/stop/<str:token>/", views.stop, name="mail-stop"),
]
